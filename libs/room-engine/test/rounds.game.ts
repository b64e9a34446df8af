import { badData, CloseCode, dataObject, RoomErrorCode, RoomException } from '@app/protocol';
import { GameRules, Outcome, unchanged } from '../src';

// A toy game with boundaries and departures, to test what a room remembers of its replies across
// a restart: players add numbers (a negative one is refused), the host ends a round (a boundary,
// so the room is snapshotted there), a player may leave (the seat is released), and anyone,
// spectators too, may cheer.

export interface RoundsState {
  readonly code: string;
  readonly seats: readonly string[];
  readonly gone: readonly string[];
  readonly total: number;
  readonly round: number;
  readonly cheers: number;
}
export type RoundsCommand =
  | { id: string; type: 'rounds.add'; data: { n: number } }
  | { id: string; type: 'rounds.end'; data: Record<string, never> }
  | { id: string; type: 'rounds.leave'; data: Record<string, never> }
  | { id: string; type: 'rounds.cheer'; data: Record<string, never> };

/** Who may send each command; a cheer is anyone's. */
const ROLES: Record<RoundsCommand['type'], readonly string[]> = {
  'rounds.add': ['player'],
  'rounds.leave': ['player'],
  'rounds.end': ['host'],
  'rounds.cheer': ['player', 'host', 'spectator'],
};

export const rounds: GameRules<RoundsState, RoundsCommand> = {
  kind: 'rounds',
  commandTypes: ['rounds.add', 'rounds.end', 'rounds.leave', 'rounds.cheer'],
  eventTypes: ['rounds.state', 'rounds.added', 'rounds.ended', 'rounds.left', 'rounds.cheered'],
  stateEvent: 'rounds.state',
  parseCommand(frame, role): RoundsCommand {
    const roles = ROLES[frame.type as RoundsCommand['type']] as readonly string[] | undefined;
    if (!roles) throw new RoomException(RoomErrorCode.UnknownType, 'unknown');
    if (!roles.includes(role)) throw new RoomException(RoomErrorCode.Forbidden, 'not you');
    const d = dataObject(frame);
    if (frame.type !== 'rounds.add') return { id: frame.id, type: frame.type as Exclude<RoundsCommand['type'], 'rounds.add'>, data: {} };
    if (typeof d.n !== 'number') throw badData('n', 'must be a number');
    return { id: frame.id, type: 'rounds.add', data: { n: d.n } };
  },
  decide(state, actor, command): Outcome<RoundsState> {
    if (command.type === 'rounds.cheer') {
      const next = { ...state, cheers: state.cheers + 1 };
      return { state: next, events: [{ type: 'rounds.cheered', data: {} }], effects: [], reply: { cheers: next.cheers } };
    }
    if (command.type === 'rounds.end') {
      const next = { ...state, round: state.round + 1 };
      return {
        state: next,
        events: [{ type: 'rounds.ended', data: { round: next.round } }],
        effects: [],
        reply: { round: next.round },
        boundary: true,
      };
    }
    const seat = actor.seat!;
    if (state.gone.includes(seat)) throw new RoomException(RoomErrorCode.SeatGone, 'you left');
    if (command.type === 'rounds.leave') {
      return {
        state: { ...state, gone: [...state.gone, seat] },
        events: [{ type: 'rounds.left', data: { seat } }],
        effects: [{ kind: 'release', seats: [seat] }],
        reply: {},
      };
    }
    if (command.data.n < 0) throw new RoomException('negative', 'only additions', { status: 409 });
    const next = { ...state, total: state.total + command.data.n };
    // Replies of many sizes, so that the memory's bounds in bytes are met at different counts.
    return {
      state: next,
      events: [{ type: 'rounds.added', data: { seat, n: command.data.n } }],
      effects: [],
      reply: { total: next.total, note: 'x'.repeat(command.data.n % 9) },
    };
  },
  onSignal: (state) => unchanged(state),
  nextDeadline: () => undefined,
  batchKey: (command) => (command.type === 'rounds.add' ? 'add' : null),
  mayPassivate: () => true,
  isOver: () => false,
  admit: (state, viewer) =>
    viewer.role === 'player' && (!state.seats.includes(viewer.seat!) || state.gone.includes(viewer.seat!))
      ? { closeCode: CloseCode.seatGone, reason: 'no seat' }
      : null,
  view: (state) => ({ total: state.total, round: state.round }),
  summarize: (state) => ({ code: state.code, phase: 'adding', seats: state.seats.length, seatsConnected: 0, round: state.round }),
};
