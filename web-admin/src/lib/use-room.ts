import { applyEvent, type RoomView } from './room-view'
import type { TriviaCommands } from '@game-rooms/client/trivia'
import type { TriviaEvents } from './trivia-events'
import { type SeatConnection, useSeat } from './use-seat'

export { wsUrl } from './use-seat'

const EVENT_TYPES: readonly (keyof TriviaEvents & string)[] = [
  'room.state',
  'player.joined',
  'player.left',
  'player.presence',
  'question.open',
  'question.progress',
  'question.closed',
  'game.finished',
  'rematch.open',
  'rematch.decided',
  'room.closed',
]

/** The key under which a seat's token is kept in sessionStorage. There is one key per role and room. */
export function seatKey(role: 'host' | 'player', code: string): string {
  return `trivia:${role}:${code.toUpperCase()}`
}

export type RoomConnection = SeatConnection<RoomView, TriviaCommands>

const applyTrivia = (view: RoomView | undefined, type: keyof TriviaEvents & string, data: unknown, now: number) =>
  applyEvent(view, { type, data } as Parameters<typeof applyEvent>[1], now)

/** One seat's live room, with its events folded into a RoomView. A null storageKey means there is nothing to connect yet. */
export function useRoom(storageKey: string | null): RoomConnection {
  return useSeat<RoomView, TriviaEvents, TriviaCommands>(storageKey, EVENT_TYPES, applyTrivia)
}
