import { CommandFrame, ReplyFrame, Role } from '@app/protocol';

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
  /** These seats are gone: their sockets close with 4003 and their replay memory is dropped. */
  | { readonly kind: 'release'; readonly seats: readonly string[] }
  /** The room is over: every socket closes with 4004 and the actor leaves memory. */
  | { readonly kind: 'close'; readonly reason: string };

/** The result of a rule: the next state, what to write, what to tell, and what to close. */
export interface Outcome<S, W> {
  readonly state: S;
  readonly writes: readonly W[];
  readonly events: readonly RoomEvent[];
  /** Every viewer needs a fresh view (a change a client cannot derive). */
  readonly resync?: boolean;
  readonly effects: readonly Effect[];
  /** A command's 200 data. */
  readonly reply?: unknown;
}

/** What a rule may know of the world besides the state: the time and a seeded random source. */
export interface RuleContext {
  /** Epoch ms: a command's arrival, or the moment a deadline was due (not when its timer ran). */
  readonly now: number;
  /** In [0, 1), from the room's seed and `now`: the same decision replays the same draws. */
  random(): number;
}

/** What the engine tells the rules besides commands. */
export type Signal =
  /** The room's deadline (nextDeadline) is due; ctx.now is that deadline. */
  | { readonly kind: 'deadline' }
  /** A seat's first socket opened or its last one closed. Presence is not written. */
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

/** A write that was committed, with what the store handed back for it. */
export interface Committed<W, R> {
  readonly write: W;
  readonly result: R;
}

/** One input the rules accepted before, as PostgreSQL recorded it, to be applied again. */
export interface Recorded<E> {
  /** When it happened (epoch ms): deadlines due before it fire first. */
  readonly at: number;
  readonly entry: E;
  /** The acknowledged command behind it: its original reply is rebuilt from the replay. */
  readonly ack?: { readonly actor: Actor; readonly commandId: string };
}

/** A room as PostgreSQL holds it, turned back into rules' terms by the game. */
export interface Restored<S, E> {
  /** The state at the start of the recorded stretch (for example when the current game started). */
  readonly state: S;
  /** What happened since, in order. */
  readonly journal: readonly Recorded<E>[];
  /** Acknowledged commands that are not replayed, with their replies. */
  readonly acknowledged: readonly { readonly actor: Actor; readonly reply: ReplyFrame }[];
  /** Deadlines taken late (after a restart) during the recorded stretch: due when, taken when. */
  readonly lateDeadlines?: readonly LateDeadline[];
}

/** A deadline that passed while no process had the room, taken when the room came back. */
export interface LateDeadline {
  readonly due: number;
  readonly at: number;
}

/**
 * The one extension point of the engine: a game is its rules. Every function is pure: no clock
 * reads (ctx.now), no randomness but ctx.random, no I/O. A refusal is a thrown RoomException.
 *
 * @example
 * const counter: GameRules<{ n: number; code: string }, { id: string; type: 'add' }, number, void, never> = {
 *   kind: 'counter',
 *   commandTypes: ['add'], eventTypes: ['added', 'counter.state'],
 *   parseCommand: (frame) => { if (frame.type !== 'add') throw unknownType(frame.type); return { id: frame.id, type: 'add' }; },
 *   decide: (s) => ({ state: { ...s, n: s.n + 1 }, writes: [s.n + 1], events: [{ type: 'added', data: { n: s.n + 1 } }], effects: [], reply: {} }),
 *   onSignal: (s) => unchanged(s),
 *   replay: (s) => unchanged(s),
 *   nextDeadline: () => undefined,
 *   batchKey: () => 'add',
 *   mergeWrites: (ws) => ws.slice(-1),
 *   mayPassivate: () => true, isOver: () => false, admit: () => null,
 *   view: (s) => ({ n: s.n }), stateEvent: 'counter.state',
 *   summarize: (s) => ({ code: s.code, phase: 'counting', seats: 0, seatsConnected: 0, round: s.n }),
 * };
 */
export interface GameRules<S, C extends { readonly id: string; readonly type: string }, W, R, E> {
  readonly kind: string;
  /** Every command type the game knows: the metrics' `command` label takes no other value. */
  readonly commandTypes: readonly string[];
  /** Every event type the game sends (its state frame included): likewise for the `kind` label. */
  readonly eventTypes: readonly string[];
  /** The frame's type (404), the role (403), the data's shape (400), in that order. */
  parseCommand(frame: CommandFrame, role: Role): C;
  decide(state: S, actor: Actor, command: C, ctx: RuleContext): Outcome<S, W>;
  onSignal(state: S, signal: Signal, ctx: RuleContext): Outcome<S, W>;
  /**
   * The rules need this write's result before they can decide anything more (an id or data
   * the database draws): the room sends nothing after it until it has committed. Every write that
   * `afterCommit` reads must be one; other writes are pipelined behind each other.
   */
  needsResult?(write: W): boolean;
  /** After the writes of a decision committed, with what the store handed back (ids, drawn data...). */
  afterCommit?(state: S, committed: readonly Committed<W, R>[], ctx: RuleContext): Outcome<S, W> | undefined;
  /** Applies one recorded input again (recovery); the outcome's writes are already committed. */
  replay(state: S, entry: E, ctx: RuleContext): Outcome<S, W>;
  /** The next moment the room has something to do, if any. */
  nextDeadline(state: S): number | undefined;
  /** Commands with the same non-null key that wait together are decided together, one statement. */
  batchKey(command: C): string | null;
  /** Folds the writes of a batch into as few statements as possible, keeping their order. */
  mergeWrites(writes: readonly W[]): W[];
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
}

export function unchanged<S, W>(state: S): Outcome<S, W> {
  return { state, writes: [], events: [], effects: [] };
}

/** The outcome of `first` followed by `second`, which already starts from first's state. */
export function chain<S, W>(first: Outcome<S, W>, second: Outcome<S, W>): Outcome<S, W> {
  return {
    state: second.state,
    writes: [...first.writes, ...second.writes],
    events: [...first.events, ...second.events],
    effects: [...first.effects, ...second.effects],
    resync: first.resync || second.resync,
    reply: first.reply ?? second.reply,
  };
}

