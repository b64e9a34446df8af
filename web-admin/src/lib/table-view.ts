// This folds what a card table sends (PROTOCOL.md section 8) into what the table page shows. The
// server sends a snapshot first and events after it. Every event here is applied as the server
// applied it, so the page never needs a fresh snapshot to stay right.

import type { CardsEvents, Street, TableAction, TableRules, TableSeat } from '@game-rooms/client/cards'

// The wire's own shapes come from the client package's schemas; what follows is the page's view.
export type { Street, TableAction, TableRules }
export type TableSeatView = TableSeat

export interface HandView {
  readonly number: number
  readonly button: number
  readonly street: Street
  readonly board: readonly string[]
  readonly pot: number
  readonly currentBet: number
  readonly minRaise: number
  readonly toAct: number | null
  /** The deadline on this browser's clock: the server's deadline less the clock offset. */
  readonly deadline: number | null
}

export interface HandResult {
  readonly number: number
  readonly board: readonly string[]
  readonly pots: readonly { amount: number; winners: readonly { seat: number; amount: number }[] }[]
  readonly shown: readonly { seat: number; cards: readonly string[]; rank: string }[]
}

export interface Standing {
  readonly seat: number
  readonly name: string
  readonly human: boolean
  readonly stack: number
  readonly net: number
  readonly hands: number
}

export interface TableView {
  readonly code: string
  readonly phase: string
  readonly mySeat: number | undefined
  readonly rules: TableRules
  readonly seats: readonly TableSeatView[]
  readonly hand: HandView | undefined
  readonly yourCards: readonly string[] | undefined
  readonly result: HandResult | undefined
  readonly standings: readonly Standing[] | undefined
  /** serverTime minus the local clock when the snapshot came, or 0 without a serverTime. */
  readonly clockOffset: number
  /** Counts every change of the betting, so that a page (or a test) can tell one turn from the next. */
  readonly moves: number
  readonly closedReason: string | undefined
}

export type TableEvent = { [K in keyof CardsEvents]: { type: K; data: CardsEvents[K] } }[keyof CardsEvents]

export const TABLE_EVENT_TYPES: readonly TableEvent['type'][] = [
  'table.snapshot',
  'table.rules',
  'hand.started',
  'hole_cards.dealt',
  'action.applied',
  'street.dealt',
  'time_bank',
  'hand.finished',
  'standings',
  'table.closed',
]

function fromSnapshot(prev: TableView | undefined, data: CardsEvents['table.snapshot'], now: number): TableView {
  const clockOffset = typeof data.serverTime === 'number' ? data.serverTime - now : 0
  const h = data.hand
  const you = data.you
  return {
    code: String(data.code),
    phase: String(data.phase ?? (h ? 'playing' : 'between')),
    mySeat: you?.seat,
    rules: data.rules,
    seats: data.seats,
    hand: h && {
      number: h.number,
      button: h.button,
      street: h.street,
      board: h.board,
      pot: h.pot,
      currentBet: h.currentBet,
      minRaise: h.minRaise,
      toAct: h.toAct,
      deadline: h.actionDeadline === null ? null : h.actionDeadline - clockOffset,
    },
    yourCards: data.yourCards,
    // A snapshot does not carry the last hand's result or the standings, so the view keeps the ones it had.
    result: prev?.result,
    standings: prev?.standings,
    clockOffset,
    moves: (prev?.moves ?? 0) + 1,
    closedReason: data.phase === 'closed' ? 'closed' : undefined,
  }
}

const withSeat = (seats: readonly TableSeatView[], seat: number, change: Partial<TableSeatView>) =>
  seats.map((s) => (s.seat === seat ? { ...s, ...change } : s))

/** Returns the view after one event; `now` is the local clock when the event came. Events before the snapshot change nothing. */
export function applyTableEvent(view: TableView | undefined, event: TableEvent, now: number): TableView | undefined {
  if (event.type === 'table.snapshot') return fromSnapshot(view, event.data, now)
  if (!view) return view
  switch (event.type) {
    case 'table.rules':
      return { ...view, rules: event.data }
    case 'hand.started': {
      const d = event.data
      let seats = view.seats.map((s) => ({ ...s, committed: 0, folded: false, allIn: false }))
      for (const b of d.blinds) {
        const s = seats.find((x) => x.seat === b.seat)!
        seats = withSeat(seats, b.seat, { committed: b.amount, stack: s.stack - b.amount, allIn: s.stack === b.amount })
      }
      const hand: HandView = {
        number: d.number,
        button: d.button,
        street: 'preflop',
        board: [],
        pot: d.pot,
        currentBet: d.currentBet,
        minRaise: d.minRaise,
        toAct: null,
        deadline: null,
      }
      // The last hand's result stays up while the next hand is dealt, because the pause between hands may be short.
      return { ...view, phase: 'playing', seats, hand, yourCards: undefined, moves: view.moves + 1 }
    }
    case 'hole_cards.dealt':
      return event.data.cards && event.data.seat === view.mySeat ? { ...view, yourCards: event.data.cards } : view
    case 'action.applied': {
      const d = event.data
      const hand = view.hand
      if (!hand) return view
      // The minimum raise grows only by a full raise, so a short all-in leaves it where it was.
      const lastRaise = hand.minRaise - hand.currentBet
      const raisedBy = d.currentBet - hand.currentBet
      const minRaise = d.currentBet + Math.max(lastRaise, raisedBy)
      const seats = withSeat(view.seats, d.seat, {
        committed: d.amount,
        stack: d.stack,
        folded: d.action === 'fold',
        allIn: d.action !== 'fold' && d.stack === 0,
      })
      const deadline = d.actionDeadline === null ? null : d.actionDeadline - view.clockOffset
      return {
        ...view,
        seats,
        hand: { ...hand, pot: d.pot, currentBet: d.currentBet, minRaise, toAct: d.toAct, deadline },
        moves: view.moves + 1,
      }
    }
    case 'street.dealt': {
      const hand = view.hand
      if (!hand) return view
      const seats = view.seats.map((s) => ({ ...s, committed: 0 }))
      const d = event.data
      return {
        ...view,
        seats,
        hand: {
          ...hand,
          street: d.street,
          board: d.board,
          pot: d.pot,
          currentBet: 0,
          minRaise: view.rules.bigBlind,
          toAct: null,
          deadline: null,
        },
        moves: view.moves + 1,
      }
    }
    case 'time_bank':
      return view.hand
        ? { ...view, hand: { ...view.hand, toAct: event.data.seat, deadline: now + event.data.remainingMs }, moves: view.moves + 1 }
        : view
    case 'hand.finished': {
      const d = event.data
      const stacks = new Map(d.stacks.map((s) => [s.seat, s.stack]))
      const seats = view.seats.map((s) => ({ ...s, committed: 0, folded: false, allIn: false, stack: stacks.get(s.seat) ?? s.stack }))
      const result: HandResult = { number: d.number, board: view.hand?.board ?? [], pots: d.pots, shown: d.shown }
      const mine = seats.find((s) => s.seat === view.mySeat)
      return { ...view, phase: mine?.stack === 0 ? 'waiting' : 'between', seats, hand: undefined, result, moves: view.moves + 1 }
    }
    case 'standings': {
      const by = new Map(event.data.seats.map((s) => [s.seat, s]))
      // The stacks come from the standings, because a busted bot bought in again between the hand and its
      // standings.
      const seats = view.seats.map((s) => {
        const n = by.get(s.seat)
        return n ? { ...s, stack: n.stack, buyInTotal: n.buyInTotal, connected: n.connected } : s
      })
      const standings = event.data.seats.map(({ seat, name, human, stack, net, hands }) => ({ seat, name, human, stack, net, hands }))
      return { ...view, seats, standings }
    }
    case 'table.closed':
      return { ...view, phase: 'closed', hand: undefined, closedReason: event.data.reason }
  }
}

export interface Choices {
  readonly myTurn: boolean
  readonly toCall: number
  readonly canCheck: boolean
  readonly canCall: boolean
  readonly canBet: boolean
  readonly canRaise: boolean
  /** The smallest total a bet or raise may reach, within the stack. */
  readonly minTotal: number
  readonly maxTotal: number
}

/** What the human may do now, as the server's rules allow (cards.betting optionsFor). */
export function choicesOf(view: TableView): Choices {
  const me = view.seats.find((s) => s.seat === view.mySeat)
  const hand = view.hand
  const myTurn = !!hand && !!me && hand.toAct === me.seat
  if (!hand || !me || !myTurn)
    return { myTurn: false, toCall: 0, canCheck: false, canCall: false, canBet: false, canRaise: false, minTotal: 0, maxTotal: 0 }
  const toCall = Math.max(0, hand.currentBet - me.committed)
  const maxTotal = me.committed + me.stack
  return {
    myTurn,
    toCall,
    canCheck: toCall === 0,
    canCall: toCall > 0,
    canBet: hand.currentBet === 0 && me.stack > 0,
    canRaise: hand.currentBet > 0 && maxTotal > hand.currentBet,
    minTotal: Math.min(hand.minRaise, maxTotal),
    maxTotal,
  }
}

const SUITS: Record<string, string> = { s: '♠', h: '♥', d: '♦', c: '♣' }
const RANKS: Record<string, string> = { T: '10' }

/** Writes a card as a person reads it: "As" becomes "A♠", and "Td" becomes "10♦". */
export function cardText(card: string): string {
  return `${RANKS[card[0]] ?? card[0]}${SUITS[card[1]] ?? card[1]}`
}

export function isRed(card: string): boolean {
  return card[1] === 'h' || card[1] === 'd'
}
