import { describe, expect, it } from 'vitest'
import { applyTableEvent, cardText, choicesOf, type TableEvent, type TableView } from './table-view'

const seat = (n: number, name: string, human = false) => ({
  seat: n,
  name,
  human,
  stack: 200,
  committed: 0,
  folded: false,
  allIn: false,
  connected: true,
  buyInTotal: 200,
})

const SNAPSHOT: TableEvent = {
  type: 'table.snapshot',
  data: {
    code: 'Q4TZ8M',
    phase: 'between',
    you: { role: 'player', seat: 0 },
    rules: { smallBlind: 1, bigBlind: 2, buyIn: 200, actionSeconds: 15 },
    seats: [seat(0, 'Ann', true), seat(1, 'Bot 1'), seat(2, 'Bot 2')],
    handsPlayed: 0,
    serverTime: 10_000,
  },
}

function fold(events: TableEvent[], localNow = 9_000): TableView {
  const view = events.reduce<TableView | undefined>((v, e) => applyTableEvent(v, e, localNow), undefined)
  if (!view) throw new Error('no view')
  return view
}

// In hand 1, seat 0 has the button, Bot 1 posts the small blind and Bot 2 the big blind. Ann acts first.
const STARTED: TableEvent[] = [
  SNAPSHOT,
  {
    type: 'hand.started',
    data: {
      number: 1,
      button: 0,
      blinds: [
        { seat: 1, amount: 1 },
        { seat: 2, amount: 2 },
      ],
      pot: 3,
      currentBet: 2,
      minRaise: 4,
    },
  },
  { type: 'hole_cards.dealt', data: { seat: 0, cards: ['As', 'Td'] } },
  { type: 'hole_cards.dealt', data: { seat: 1, cards: null } },
  { type: 'time_bank', data: { seat: 0, remainingMs: 15_000 } },
]

describe('applyTableEvent', () => {
  it('ignores events before the snapshot, and reads the server clock offset from it', () => {
    expect(applyTableEvent(undefined, STARTED[1], 0)).toBeUndefined()
    expect(fold([SNAPSHOT]).clockOffset).toBe(1_000)
  })

  it('posts the blinds, keeps only the own cards and puts the clock on the local time line', () => {
    const view = fold(STARTED)
    expect(view.seats.map((s) => [s.stack, s.committed])).toEqual([
      [200, 0],
      [199, 1],
      [198, 2],
    ])
    expect(view.yourCards).toEqual(['As', 'Td'])
    expect(view.hand).toMatchObject({ toAct: 0, pot: 3, currentBet: 2, minRaise: 4, deadline: 24_000 })
    expect(choicesOf(view)).toMatchObject({
      myTurn: true,
      toCall: 2,
      canCheck: false,
      canCall: true,
      canBet: false,
      canRaise: true,
      minTotal: 4,
      maxTotal: 200,
    })
  })

  it('raises the minimum by a full raise only, and starts each street again at the big blind', () => {
    const raised = fold([
      ...STARTED,
      {
        type: 'action.applied',
        data: { seat: 0, action: 'raise', amount: 10, stack: 190, pot: 13, currentBet: 10, toAct: 1, actionDeadline: 30_000 },
      },
    ])
    // After a raise of 8 over 2, the next raise must reach 18.
    expect(raised.hand).toMatchObject({ currentBet: 10, minRaise: 18, toAct: 1, deadline: 29_000 })
    expect(choicesOf(raised).myTurn).toBe(false)
    const flop = fold([
      ...STARTED,
      {
        type: 'action.applied',
        data: { seat: 0, action: 'call', amount: 2, stack: 198, pot: 5, currentBet: 2, toAct: 1, actionDeadline: 30_000 },
      },
      {
        type: 'action.applied',
        data: { seat: 1, action: 'fold', amount: 1, stack: 199, pot: 5, currentBet: 2, toAct: 2, actionDeadline: 30_000 },
      },
      {
        type: 'action.applied',
        data: { seat: 2, action: 'check', amount: 2, stack: 198, pot: 5, currentBet: 2, toAct: null, actionDeadline: null },
      },
      { type: 'street.dealt', data: { street: 'flop', board: ['2c', '7h', 'Kd'], pot: 5 } },
      { type: 'time_bank', data: { seat: 2, remainingMs: 15_000 } },
    ])
    expect(flop.seats.map((s) => [s.committed, s.folded])).toEqual([
      [0, false],
      [0, true],
      [0, false],
    ])
    expect(flop.hand).toMatchObject({ street: 'flop', board: ['2c', '7h', 'Kd'], currentBet: 0, minRaise: 2, toAct: 2 })
  })

  it('keeps the result of the last hand while the next is dealt, and marks a busted human as waiting', () => {
    const done = fold([
      ...STARTED,
      {
        type: 'hand.finished',
        data: {
          number: 1,
          pots: [{ amount: 400, winners: [{ seat: 1, amount: 400 }] }],
          shown: [{ seat: 0, cards: ['As', 'Td'], rank: 'Pair' }],
          stacks: [
            { seat: 0, stack: 0 },
            { seat: 1, stack: 400 },
            { seat: 2, stack: 200 },
          ],
        },
      },
    ])
    expect(done).toMatchObject({ phase: 'waiting', hand: undefined, result: { number: 1 } })
    expect(done.seats[0]).toMatchObject({ stack: 0, allIn: false, folded: false })
    const next = applyTableEvent(done, STARTED[1], 9_000)!
    expect(next.result?.number).toBe(1)
    expect(next.yourCards).toBeUndefined()
  })

  it('may check and bet when nothing is owed', () => {
    const view = fold([
      ...STARTED,
      { type: 'street.dealt', data: { street: 'flop', board: ['2c', '7h', 'Kd'], pot: 6 } },
      { type: 'time_bank', data: { seat: 0, remainingMs: 15_000 } },
    ])
    expect(choicesOf(view)).toMatchObject({ canCheck: true, canCall: false, canBet: true, canRaise: false, minTotal: 2 })
  })
})

describe('cardText', () => {
  it('spells a card with its suit, and a ten as 10', () => {
    expect(cardText('As')).toBe('A♠')
    expect(cardText('Td')).toBe('10♦')
    expect(cardText('9h')).toBe('9♥')
  })
})
