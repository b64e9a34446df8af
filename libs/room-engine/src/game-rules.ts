import { CommandFrame, Role } from '@app/protocol';

/** Who acts or watches, as the rules see it: a role and, for a seated player, the seat. */
export interface Actor {
  readonly role: Role;
  /** The seat's id for a player; absent for the host and spectators. */
  readonly seat?: string;
}

/** Who an event is for. The engine delivers each event to exactly this audience. */
export type Audience =
  | { readonly to: 'all' }
  | { readonly to: 'seats'; readonly seats: readonly string[] }
  | { readonly to: 'allBut'; readonly seats: readonly string[] }
  | { readonly to: 'roles'; readonly roles: readonly Role[] };

export const EVERYONE: Audience = { to: 'all' };

export interface RoomEvent {
  readonly type: string;
  readonly data: unknown;
  /** Everyone when absent. */
  readonly audience?: Audience;
}

/** Side effects beyond events, applied by the engine after the events went out. */
export type Effect =
  /**
   * These seats are gone: their sockets close with 4003. Their replay memory ages out with the
   * room's, as a replay after a restart has it (so a seat's id must never be given to another).
   */
  | { readonly kind: 'release'; readonly seats: readonly string[] }
  /** The room is over: every socket closes with 4004 and the actor leaves memory. */
  | { readonly kind: 'close'; readonly reason: string };

/** What a finished game reports: its number in the room, and its summary (the game's own JSON). */
export interface FinishedGame {
  readonly no: number;
  readonly summary: unknown;
  /** Its record's id, when the game names it (a results link it already told its players: `ctx.id()`). */
  readonly id?: string;
}

/**
 * The result of a rule: the next state, what to tell, and what to close. The engine journals the
 * input that led to it (a command, a proposal, a presence change, a deadline taken late) and
 * nothing the rules write themselves: replaying the journal through the same rules rebuilds it.
 */
export interface Outcome<S> {
  readonly state: S;
  readonly events: readonly RoomEvent[];
  /** Every viewer needs a fresh view (a change a client cannot derive). */
  readonly resync?: boolean;
  readonly effects: readonly Effect[];
  /** A command's 200 data. */
  readonly reply?: unknown;
  /**
   * For a signal: what it changed must be in the journal before anyone hears of it, because it
   * decided something a replay could not know otherwise (a round closed early because everyone
   * still connected had played). A command's change always is; a presence change without this is
   * journaled with the room's next statement, at no cost of its own.
   */
  readonly durable?: boolean;
  /** The game is at one of its boundaries (between games, between hands): the engine snapshots the room here, and a replay starts from it. */
  readonly boundary?: boolean;
  /** A game ended: what it reports goes to the finished games, in the same statement. */
  readonly finished?: FinishedGame;
}

/** What a rule may know of the world besides the state: the time and a seeded random source. */
export interface RuleContext {
  /** Epoch ms: a command's arrival, or the moment a deadline was due (not when its timer ran). */
  readonly now: number;
  /** In [0, 1), from the room's seed and `now`: the same decision replays the same draws. */
  random(): number;
  /** An id no client can guess (a results link), the same when the decision is replayed. */
  id(): string;
}

/** What the engine tells the rules besides commands. */
export type Signal =
  /** The room's deadline (nextDeadline) is due; ctx.now is that deadline. */
  | { readonly kind: 'deadline' }
  /** A seat's first socket opened or its last one closed. */
  | { readonly kind: 'presence'; readonly seat: string; readonly connected: boolean }
  /** The room was closed outside the actor (HTTP, an operator, another instance): already committed. */
  | { readonly kind: 'closed'; readonly reason: string }
  /** The room was rebuilt from PostgreSQL in a fresh process: nobody is connected yet. */
  | { readonly kind: 'resumed' };

/** A socket may not join: closed with this code. */
export interface Refusal {
  readonly closeCode: number;
  readonly reason: string;
}

/** What an operator sees of a live room, whatever its game. */
export interface RoomSummary {
  readonly code: string;
  readonly phase: string;
  readonly seats: number;
  readonly seatsConnected: number;
  /** The round in play (by whatever name its game gives it), if any. */
  readonly round: number | null;
}

/**
 * The one extension point of the engine: a game is its rules. This is the engine's internal,
 * fully-defaulted form: a game author writes `defineGame({...})` (define-game.ts), which makes it. Every function is pure: no clock
 * reads (ctx.now), no randomness but ctx.random, no I/O. A refusal is a thrown RoomException.
 * States are plain JSON (a snapshot is the state as JSON, and it must come back the same).
 *
 * @example
 * const counter: GameRules<{ n: number; code: string }, { id: string; type: 'add' }> = {
 *   kind: 'counter',
 *   commandTypes: ['add'], eventTypes: ['added', 'counter.state'],
 *   parseCommand: (frame) => { if (frame.type !== 'add') throw unknownType(frame.type); return { id: frame.id, type: 'add' }; },
 *   decide: (s) => ({ state: { ...s, n: s.n + 1 }, events: [{ type: 'added', data: { n: s.n + 1 } }], effects: [], reply: {} }),
 *   onSignal: (s) => unchanged(s),
 *   nextDeadline: () => undefined,
 *   batchKey: () => 'add',
 *   mayPassivate: () => true, isOver: () => false, admit: () => null,
 *   view: (s) => ({ n: s.n }), stateEvent: 'counter.state',
 *   summarize: (s) => ({ code: s.code, phase: 'counting', seats: 0, seatsConnected: 0, round: s.n }),
 * };
 */
export interface GameRules<S, C extends { readonly id: string; readonly type: string }> {
  readonly kind: string;
  /** Every command type the game knows: the metrics' `command` label takes no other value. */
  readonly commandTypes: readonly string[];
  /** Every event type the game sends (its state frame included): likewise for the `kind` label. */
  readonly eventTypes: readonly string[];
  /** The frame's type (404), the role (403), the data's shape (400), in that order. */
  parseCommand(frame: CommandFrame, role: Role): C;
  decide(state: S, actor: Actor, command: C, ctx: RuleContext): Outcome<S>;
  onSignal(state: S, signal: Signal, ctx: RuleContext): Outcome<S>;
  /**
   * Changes asked for outside the socket protocol (an HTTP join), by name: the journal records
   * the name and the arguments (JSON), and a replay calls the same rule with them.
   */
  readonly proposals?: Readonly<Record<string, (state: S, args: any, ctx: RuleContext) => Outcome<S>>>;
  /** The next moment the room has something to do, if any. */
  nextDeadline(state: S): number | undefined;
  /**
   * The state with its clocks moved on by `ms`: the room could record nothing for that long (its
   * database was away), so nobody could play, and the engine held the clocks (clock-hold.ts). What
   * is still to come moves (a round's close, a turn's clock, a lobby's expiry), and so does what
   * a running clock is measured from (the moment a round opened); what records the past (when
   * a game started, an answer's time) stays. A replay calls it at the same point of the journal.
   * Absent: nothing moves, so a deadline that fell due during the hold is taken as the room resumes.
   *
   * @example
   * shiftClocks: (s, ms) => (s.moveBy === undefined ? s : { ...s, moveBy: s.moveBy + ms }),
   */
  shiftClocks?(state: S, ms: number): S;
  /** Commands with the same non-null key that wait together are decided together, one statement. */
  batchKey(command: C): string | null;
  /** Whether the room may leave memory when nobody watches (no clock running that matters). */
  mayPassivate(state: S): boolean;
  /** The room is over (closed): it takes no command and leaves memory as soon as nobody watches. */
  isOver(state: S): boolean;
  /** Whether this viewer may join the room now. */
  admit(state: S, viewer: Actor): Refusal | null;
  /** The whole room as this viewer may see it, the first frame of every socket. */
  view(state: S, viewer: Actor, now: number): Record<string, unknown>;
  /** The type of the frame `view` is sent as (`room.state`, `table.snapshot`). */
  readonly stateEvent: string;
  summarize(state: S): RoomSummary;
  /**
   * What a snapshot keeps of the state, when that is less than all of it: what the room was opened
   * with (its deck's copy, kept once with the room) need not be written again at every boundary.
   * The game's module puts it back (`GameModule.fromSnapshot`). The whole state when absent.
   */
  snapshotOf?(state: S): unknown;
}

export function unchanged<S>(state: S): Outcome<S> {
  return { state, events: [], effects: [] };
}

/** The outcome of `first` followed by `second`, which already starts from first's state. */
export function chain<S>(first: Outcome<S>, second: Outcome<S>): Outcome<S> {
  return {
    state: second.state,
    events: [...first.events, ...second.events],
    effects: [...first.effects, ...second.effects],
    resync: first.resync || second.resync,
    reply: first.reply ?? second.reply,
    durable: first.durable || second.durable || undefined,
    boundary: first.boundary || second.boundary || undefined,
    finished: second.finished ?? first.finished,
  };
}
