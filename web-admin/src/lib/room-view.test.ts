import { describe, expect, it } from 'vitest'
import { applyEvent, withMyAnswer, type RoomView } from './room-view'
import type { RoomStateData } from './trivia-events'

const STATE: RoomStateData = {
  code: 'K7QMPD',
  phase: 'lobby',
  you: { role: 'player', playerId: 'p1' },
  host: { name: 'Quizmaster' },
  players: [
    { id: 'p1', name: 'Ann', connected: true, score: 0 },
    { id: 'p2', name: 'Bob', connected: true, score: 0 },
  ],
  settings: { deckId: 'd', questionCount: 2, secondsPerQuestion: 20, revealSeconds: 4, maxPlayers: 20, minPlayers: 2 },
  serverTime: 10_000,
}

function fold(events: Parameters<typeof applyEvent>[1][], localNow = 9_000): RoomView | undefined {
  return events.reduce<RoomView | undefined>((view, event) => applyEvent(view, event, localNow), undefined)
}

describe('applyEvent', () => {
  it('ignores events before the first room.state, then follows the lobby', () => {
    const view = fold([
      { type: 'player.presence', data: { playerId: 'p2', connected: false } },
      { type: 'room.state', data: STATE },
      { type: 'player.joined', data: { player: { id: 'p3', name: 'Cy', connected: true, score: 0 } } },
      { type: 'player.presence', data: { playerId: 'p2', connected: false } },
      { type: 'player.left', data: { playerId: 'p1', reason: 'kicked' } },
    ])
    expect(view?.players.map((p) => [p.name, p.connected])).toEqual([
      ['Bob', false],
      ['Cy', true],
    ])
  })

  it('takes the clock offset from the server, follows a question to its reveal and keeps the reveal into the standings', () => {
    let view = fold([{ type: 'room.state', data: STATE }])
    expect(view?.clockOffsetMs).toBe(1_000)
    view = applyEvent(
      view,
      { type: 'question.open', data: { index: 0, total: 2, text: 'Q?', choices: ['a', 'b'], closesAt: 30_000, serverTime: 10_500 } },
      10_000,
    )
    expect(view).toMatchObject({ phase: 'question', clockOffsetMs: 500, question: { index: 0, answered: 0, of: 2 } })
    view = withMyAnswer(view!, 0, { choice: 1 })
    view = applyEvent(view, { type: 'question.progress', data: { index: 0, answered: 1, of: 2 } }, 10_000)
    expect(view).toMatchObject({ question: { answered: 1, of: 2 }, myAnswer: { question: 0, choice: 1 } })
    view = applyEvent(
      view,
      {
        type: 'question.closed',
        data: {
          index: 0,
          correct: 1,
          counts: [0, 1],
          scores: [
            { playerId: 'p1', points: 900, total: 900 },
            { playerId: 'p2', points: 0, total: 0 },
          ],
        },
      },
      10_000,
    )
    expect(view).toMatchObject({
      phase: 'reveal',
      reveal: { correct: 1 },
      revealed: { text: 'Q?', kind: 'choice', choices: ['a', 'b'], total: 2 },
    })
    expect(view?.players.find((p) => p.id === 'p1')?.score).toBe(900)
    view = applyEvent(
      view,
      { type: 'game.finished', data: { standings: [{ playerId: 'p1', name: 'Ann', score: 900, correct: 1, rank: 1 }], resultsId: 'r-1' } },
      10_000,
    )
    view = applyEvent(view, { type: 'rematch.open', data: { closesAt: 40_000 } }, 10_000)
    expect(view).toMatchObject({ phase: 'finished', reveal: { index: 0 }, rematch: { closesAt: 40_000 }, resultsId: 'r-1' })
    // On a reconnect while finished, room.state names the results. When a server's room.state does not, the
    // view keeps the results it has.
    view = applyEvent(view, { type: 'room.state', data: { ...STATE, phase: 'finished', serverTime: 20_000 } }, 20_000)
    expect(view?.resultsId).toBe('r-1')
    expect(fold([{ type: 'room.state', data: { ...STATE, phase: 'finished', resultsId: 'r-2' } }])?.resultsId).toBe('r-2')
    view = applyEvent(view, { type: 'rematch.decided', data: { accepted: true, playerIds: ['p1', 'p2'] } }, 10_000)
    // Back in the lobby, the rematch's outcome stays on screen until the next game opens its first question.
    view = applyEvent(view, { type: 'room.state', data: { ...STATE, serverTime: 41_000 } }, 41_000)
    expect(view).toMatchObject({ phase: 'lobby', lastRematch: { accepted: true }, reveal: undefined, resultsId: undefined })
  })

  it('marks the room closed with its reason', () => {
    const view = fold([
      { type: 'room.state', data: STATE },
      { type: 'room.closed', data: { reason: 'host_closed' } },
    ])
    expect(view).toMatchObject({ phase: 'closed', closedReason: 'host_closed' })
  })
})
