import { badData, dataObject, RoomErrorCode, RoomException } from '@app/protocol';
import { GameRules, Outcome, unchanged } from '../src';

// A toy game with many deadlines, to test that a live room and its replay take them alike: each
// command sets an alarm some milliseconds after it, each alarm rings at its moment and draws from
// the room's random source, and what a command leaves depends on the alarms rung before it.

export interface Rang {
  readonly due: number;
  readonly at: number;
  readonly draw: number;
}
export interface ChimeState {
  readonly code: string;
  /** Alarms still to ring, soonest first. */
  readonly alarms: readonly number[];
  readonly rung: readonly Rang[];
  readonly inputs: readonly { readonly seat: string; readonly at: number; readonly rungBefore: number }[];
}
export type ChimeCommand = { id: string; type: 'chime.set'; data: { inMs: number } };
/** Who set which alarm, and when. */
type AlarmSet = { seat: string; at: number; inMs: number };

export const chimeStart = (code = 'CHIME1'): ChimeState => ({ code, alarms: [], rung: [], inputs: [] });

export const chime: GameRules<ChimeState, ChimeCommand> = {
  kind: 'chime',
  commandTypes: ['chime.set'],
  eventTypes: ['chime.state', 'chime.set', 'chime.rang'],
  stateEvent: 'chime.state',
  parseCommand(frame): ChimeCommand {
    if (frame.type !== 'chime.set') throw new RoomException(RoomErrorCode.UnknownType, 'unknown');
    const d = dataObject(frame);
    if (typeof d.inMs !== 'number') throw badData('inMs', 'must be a number');
    return { id: frame.id, type: 'chime.set', data: { inMs: d.inMs } };
  },
  decide(state, actor, command, ctx) {
    if (command.data.inMs < 0) throw new RoomException('past', 'an alarm is set ahead', { status: 409 });
    return set(state, { seat: actor.seat!, at: ctx.now, inMs: command.data.inMs });
  },
  onSignal(state, signal, ctx) {
    const due = state.alarms[0];
    if (signal.kind !== 'deadline' || due === undefined || ctx.now < due) return unchanged(state);
    const rang: Rang = { due, at: ctx.now, draw: ctx.random() };
    return {
      state: { ...state, alarms: state.alarms.slice(1), rung: [...state.rung, rang] },
      events: [{ type: 'chime.rang', data: rang }],
      effects: [],
    };
  },
  nextDeadline: (state) => state.alarms[0],
  // Held clocks move every alarm still to ring.
  shiftClocks: (state, ms) => ({ ...state, alarms: state.alarms.map((a) => a + ms) }),
  batchKey: () => 'set',
  mayPassivate: () => true,
  isOver: () => false,
  admit: () => null,
  view: (state) => ({ rung: state.rung.length }),
  summarize: (state) => ({ code: state.code, phase: 'chiming', seats: 0, seatsConnected: 0, round: state.rung.length }),
};

function set(state: ChimeState, write: AlarmSet): Outcome<ChimeState> {
  const alarms = [...state.alarms, write.at + write.inMs].sort((a, b) => a - b);
  const inputs = [...state.inputs, { seat: write.seat, at: write.at, rungBefore: state.rung.length }];
  return {
    state: { ...state, alarms, inputs },
    events: [{ type: 'chime.set', data: { seat: write.seat } }],
    effects: [],
    reply: { rung: state.rung.length, alarms: alarms.length },
  };
}
