import { badData, CloseCode, dataObject, RoomErrorCode, RoomException } from '@app/protocol';
import { chain, GameRules, Outcome, unchanged } from '../src';

// The smallest game there is, to test the engine without any real one: players add numbers to a
// shared total, the host may close the table, and a deadline rings the bell once.

export interface TallyState {
  readonly code: string;
  readonly seats: readonly string[];
  readonly total: number;
  readonly bellAt?: number;
  readonly rungAt?: number;
  readonly closed: boolean;
}
export type TallyCommand =
  { id: string; type: 'tally.add'; data: { n: number } } | { id: string; type: 'tally.close'; data: Record<string, never> };

export const tally: GameRules<TallyState, TallyCommand> = {
  kind: 'tally',
  commandTypes: ['tally.add', 'tally.close'],
  eventTypes: ['tally.state', 'tally.added', 'tally.secret', 'tally.note', 'tally.bell', 'tally.closed'],
  stateEvent: 'tally.state',
  parseCommand(frame, role): TallyCommand {
    if (frame.type !== 'tally.add' && frame.type !== 'tally.close') throw new RoomException(RoomErrorCode.UnknownType, 'unknown');
    if ((frame.type === 'tally.add') !== (role === 'player')) throw new RoomException(RoomErrorCode.Forbidden, 'not you');
    const d = dataObject(frame);
    if (frame.type === 'tally.close') return { id: frame.id, type: frame.type, data: {} };
    if (typeof d.n !== 'number') throw badData('n', 'must be a number');
    return { id: frame.id, type: frame.type, data: { n: d.n } };
  },
  decide(state, actor, command): Outcome<TallyState> {
    if (state.closed) throw new RoomException(RoomErrorCode.RoomClosed, 'closed');
    if (command.type === 'tally.close') {
      return {
        state: { ...state, closed: true },
        events: [{ type: 'tally.closed', data: {} }],
        effects: [{ kind: 'close', reason: 'host' }],
        reply: {},
      };
    }
    if (command.data.n < 0) throw new RoomException('negative', 'only additions', { status: 409 });
    return add(state, actor.seat!, command.data.n);
  },
  onSignal(state, signal, ctx) {
    if (signal.kind === 'deadline' && state.bellAt !== undefined && ctx.now >= state.bellAt) {
      return {
        state: { ...state, bellAt: undefined, rungAt: ctx.now },
        events: [{ type: 'tally.bell', data: { at: ctx.now } }],
        effects: [],
      };
    }
    return unchanged(state);
  },
  nextDeadline: (state) => state.bellAt,
  // Additions wait together; a subtraction (always refused) never batches.
  batchKey: (command) => (command.type === 'tally.add' && command.data.n >= 0 ? 'add' : null),
  mayPassivate: () => true,
  isOver: (state) => state.closed,
  admit: (state, viewer) =>
    viewer.role === 'player' && !state.seats.includes(viewer.seat!) ? { closeCode: CloseCode.seatGone, reason: 'no seat' } : null,
  view: (state) => ({ total: state.total }),
  summarize: (state) => ({
    code: state.code,
    phase: state.closed ? 'closed' : 'open',
    seats: state.seats.length,
    seatsConnected: 0,
    round: null,
  }),
};

function add(state: TallyState, seat: string, n: number): Outcome<TallyState> {
  const next = { ...state, total: state.total + n };
  const base: Outcome<TallyState> = {
    state: next,
    events: [{ type: 'tally.added', data: { seat, n } }],
    effects: [],
    reply: { total: next.total },
  };
  // A secret for the adder alone, and a note for everyone else.
  return chain(base, {
    state: next,

    events: [
      { type: 'tally.secret', data: { seat }, audience: { to: 'seats', seats: [seat] } },
      { type: 'tally.note', data: {}, audience: { to: 'allBut', seats: [seat] } },
    ],
    effects: [],
  });
}
