import { CommandFrame, Role } from '@app/protocol';

/** Someone who acts in the room or watches it, as the rules see them: a role, and a seat for a seated player. */
export interface Actor {
  readonly role: Role;
  /** The seat's id for a player. The host and spectators have none. */
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
  /** Who the event is for. When absent, it goes to everyone. */
  readonly audience?: Audience;
}

/** Side effects besides events. The engine applies them after it has sent the events. */
export type Effect =
  /**
   * These seats have left the room, and the engine closes their sockets with 4003. Their reply
   * memory is not dropped now: it ages out with the room's, just as it does when a replay rebuilds
   * the room after a restart. So a seat's id must never be given to another player.
   */
  | { readonly kind: 'release'; readonly seats: readonly string[] }
  /** The room is over. The engine closes every socket with 4004 and removes the actor from memory. */
  | { readonly kind: 'close'; readonly reason: string };

/** What a finished game reports: its number within the room, and its summary in the game's own JSON. */
export interface FinishedGame {
  readonly no: number;
  readonly summary: unknown;
  /**
   * The id of the finished game's record, when the game chooses it. A game does so when it has
   * already told its players a results link made with `ctx.id()`.
   */
  readonly id?: string;
}

/**
 * The result of a rule: the next state, the events to send, and the effects (what to close). The
 * engine journals the input that led to this outcome (a command, a proposal, a presence change, a
 * deadline taken late), never what the rules produced from it. Replaying the journal through the
 * same rules rebuilds the outcome.
 */
export interface Outcome<S> {
  readonly state: S;
  readonly events: readonly RoomEvent[];
  /** Set when every viewer needs a fresh view, because a client cannot derive the change from the events. */
  readonly resync?: boolean;
  readonly effects: readonly Effect[];
  /** The data of a command's 200 reply. */
  readonly reply?: unknown;
  /**
   * Set by a signal whose change must be in the journal before anyone hears of it. A signal needs
   * this when it decided something that a replay could not know otherwise, such as a round that
   * closed early because every player still connected had played. A command's change is always
   * journaled first. A presence change without this flag is journaled with the room's next
   * statement, so it costs no statement of its own.
   */
  readonly durable?: boolean;
  /**
   * Set when the game is at one of its boundaries (between games, between hands). The engine
   * snapshots the room here, and a later replay starts from that snapshot.
   */
  readonly boundary?: boolean;
  /** Set when a game ended. The engine writes what it reports to the finished games in the same statement. */
  readonly finished?: FinishedGame;
}

/** What a rule may know of the world besides the state: the time and a seeded random source. */
export interface RuleContext {
  /** The time in epoch ms: when a command arrived, or when a deadline was due (not when its timer ran). */
  readonly now: number;
  /** Returns a number in [0, 1) drawn from the room's seed and `now`, so a replayed decision draws the same numbers. */
  random(): number;
  /** Returns an id that no client can guess (for a results link). A replayed decision gets the same id. */
  id(): string;
}

/** What the engine tells the rules besides commands. */
export type Signal =
  /** The room's deadline (from nextDeadline) is due, and ctx.now is that deadline. */
  | { readonly kind: 'deadline' }
  /** A seat's first socket opened or its last one closed. */
  | { readonly kind: 'presence'; readonly seat: string; readonly connected: boolean }
  /** Something outside the actor closed the room (HTTP, an operator, another instance). The close is already committed. */
  | { readonly kind: 'closed'; readonly reason: string }
  /** The room was rebuilt from PostgreSQL in a fresh process: nobody is connected yet. */
  | { readonly kind: 'resumed' };

/** Why a socket may not join. The engine closes the socket with this code. */
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
 * The one extension point of the engine: a game is its rules. This is the engine's internal form,
 * with every default filled in. A game author does not write it but calls `defineGame({...})`
 * (define-game.ts), which builds it. Every function is pure: it reads no clock (it uses ctx.now),
 * draws no randomness except ctx.random, and does no I/O. A rule refuses by throwing a
 * RoomException. States are plain JSON, because a snapshot is the state as JSON and must come
 * back the same.
 *
 * @example
 * const counter: GameRules<{ n: number; code: string }, { id: string; type: 'add' }> = {
 *   kind: 'counter',
 *   commandTypes: ['add'], eventTypes: ['added', 'counter.state'],
 *   parseCommand: (frame) => {
 *     if (frame.type !== 'add') throw unknownType(frame.type);
 *     return { id: frame.id, type: 'add' };
 *   },
 *   decide: (s) => ({
 *     state: { ...s, n: s.n + 1 }, events: [{ type: 'added', data: { n: s.n + 1 } }], effects: [], reply: {},
 *   }),
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
  /** Every command type the game knows. The metrics' `command` label takes no other value. */
  readonly commandTypes: readonly string[];
  /** Every event type the game sends, its state frame included. The metrics' `kind` label takes no other value. */
  readonly eventTypes: readonly string[];
  /** Parses a command frame. It checks the frame's type (404), then the role (403), then the data's shape (400). */
  parseCommand(frame: CommandFrame, role: Role): C;
  decide(state: S, actor: Actor, command: C, ctx: RuleContext): Outcome<S>;
  onSignal(state: S, signal: Signal, ctx: RuleContext): Outcome<S>;
  /**
   * Changes that arrive outside the socket protocol (such as an HTTP join), each under a name. The
   * journal records the name and the arguments as JSON, and a replay calls the same rule with them.
   */
  readonly proposals?: Readonly<Record<string, (state: S, args: any, ctx: RuleContext) => Outcome<S>>>;
  /** The next moment the room has something to do, if any. */
  nextDeadline(state: S): number | undefined;
  /**
   * Returns the state with its clocks moved on by `ms`. The engine calls it after it held the
   * clocks (clock-hold.ts): the room could record nothing for that long because its database was
   * away, so nobody could play. Times still to come move (a round's close, a turn's clock, a
   * lobby's expiry), and so do the times a running clock is measured from (the moment a round
   * opened). Times that record the past (when a game started, an answer's time) stay. A replay
   * calls it at the same point of the journal. When a game leaves it out, nothing moves, so a
   * deadline that fell due during the hold is taken as soon as the room resumes.
   *
   * @example
   * shiftClocks: (s, ms) => (s.moveBy === undefined ? s : { ...s, moveBy: s.moveBy + ms }),
   */
  shiftClocks?(state: S, ms: number): S;
  /** Commands that wait together and share a non-null key are decided together and written in one statement. */
  batchKey(command: C): string | null;
  /** Whether the room may leave memory while nobody watches. It may when no clock that matters is running. */
  mayPassivate(state: S): boolean;
  /** Whether the room is over (closed). Such a room takes no command and leaves memory as soon as nobody watches. */
  isOver(state: S): boolean;
  /** Whether this viewer may join the room now. */
  admit(state: S, viewer: Actor): Refusal | null;
  /** The whole room as this viewer may see it. Every socket receives it as its first frame. */
  view(state: S, viewer: Actor, now: number): Record<string, unknown>;
  /** The type of the frame `view` is sent as (`room.state`, `table.snapshot`). */
  readonly stateEvent: string;
  summarize(state: S): RoomSummary;
  /**
   * What a snapshot keeps of the state, when it keeps less than all of it. What the room was
   * opened with (its copy of the deck, stored once with the room) need not be written again at
   * every boundary. The game's module puts that part back (`GameModule.fromSnapshot`). When this
   * is absent, a snapshot keeps the whole state.
   */
  snapshotOf?(state: S): unknown;
}

export function unchanged<S>(state: S): Outcome<S> {
  return { state, events: [], effects: [] };
}

/** Joins two outcomes: `first`, then `second`. `second` must already start from the state `first` produced. */
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
