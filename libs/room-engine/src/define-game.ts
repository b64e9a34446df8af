import { z, ZodType } from 'zod';
import { clip, CloseCode, CommandFrame, GameCodes, readBody, Role, RoomErrorCode, RoomException, Status, validData } from '@app/protocol';
import { FinishedRecord, GameModule, GameOpening, OpenedWith } from './game-module';
import { Actor, Effect, GameRules, Outcome, Refusal, RoomEvent, RoomSummary, RuleContext, Signal, unchanged } from './game-rules';

/** What a command's `decide` knows besides the state and the data: who sent the command, its id, the time and the room's random source. */
export interface CommandContext extends RuleContext {
  readonly actor: Actor;
  /** The command's id, as its sender chose it. */
  readonly commandId: string;
}

/**
 * What a game's rule returns. It is an `Outcome` whose events and effects may be left out when there
 * are none, and a command's reply is `{}` when it is left out. `defineGame` fills them in for the engine.
 */
export type Step<S> = Omit<Outcome<S>, 'events' | 'effects'> & {
  readonly events?: readonly RoomEvent[];
  readonly effects?: readonly Effect[];
};

/** One command of a game: the shape of its data, the roles that may send it, and what it does. */
export interface CommandDefinition<S, Data> {
  /**
   * Checks the frame's data, and a 400 reply names the first wrong field. `decide` gets what the
   * schema outputs. Default: the wire's schema of this command.
   */
  readonly schema?: ZodType<Data>;
  /** The roles that may send this command. Any other role is refused with 403. */
  readonly roles: readonly Role[];
  /**
   * Returns the next state and what to tell, or throws a RoomException (see `refuse`) to refuse the
   * command. It must be pure, because the journal replays it.
   */
  decide(state: S, data: Data, ctx: CommandContext): Step<S>;
}

/** What a room's first state is made from, besides its settings. */
export interface SetupContext extends OpenedWith {
  readonly roomId: string;
  readonly code: string;
  /** The seat id of whoever opened the room, or `'host'` when the room's host opened it. */
  readonly opener: string;
}

/** A seat as the defaults read it from `state.seats` (or from `seats(state)`). */
export interface SeatLike {
  readonly id: string;
  readonly name?: string;
  readonly connected?: boolean;
}

/** The fields of the state that the defaults read. A game whose state has none of them writes the hooks that would read them. */
interface Conventional {
  readonly code?: string;
  readonly phase?: string;
  readonly seats?: readonly SeatLike[];
}

/**
 * A game, as its author writes it. Six members are required: `wire` (or, for a game without a
 * wire file, `name` and `events`), `settings`, `setup`, `commands`, `view` and `describe`. A game
 * whose state has no `phase` also writes `isOver`. Every other member has a default that reads the conventional
 * fields of the state (`code`, `phase: 'closed'` when closed, `seats` of `{ id, name, connected }`).
 * `defineGame` turns it into the engine's `GameModule`.
 */
export interface GameDefinition<S, Commands extends object, Body extends ZodType = ZodType, Settings = z.output<Body>> {
  /**
   * The game's wire (`defineWire` in its `<game>.wire.ts`). The wire gives, once, the game's name,
   * its command and event schemas, its state frame and its derived codes. A game without a wire
   * gives `name`, `events` and each command's `schema` here instead.
   */
  readonly wire?: GameWireOf<Commands>;
  /**
   * The game's name, given once. It is the rooms' `game` field, the game in the console's rows and
   * the name of its section of the code table. Default: the wire's `kind`.
   */
  readonly name?: string;
  /**
   * The schema of the body that opens a room (`POST /api/rooms {game, ...}`), with its defaults. A
   * bad field gets a 400 reply that names it.
   */
  readonly settings: Body;
  /** The room's first state. */
  setup(settings: Settings, opened: SetupContext): S;
  /**
   * The commands a socket may send, by type. The envelope of each command is parsed from this map,
   * and a bad one is refused with 404, 403 or 400, checked in that order.
   */
  readonly commands: { readonly [T in keyof Commands]: CommandDefinition<S, Commands[T]> };
  /** The events the game sends, by type. The state frame comes first unless `stateEvent` names another. Default: the wire's events. */
  readonly events?: Readonly<Record<string, ZodType>>;
  /** The whole room as this viewer may see it. This is where the game keeps each seat's secrets private. */
  view(state: S, viewer: Actor, now: number): Record<string, unknown>;
  /** What anyone may know of the room. It is the public summary and the console's detail, so it never holds a secret. */
  describe(state: S): Record<string, unknown>;
  /** Whether the room is over. A room that is over takes no command. Default: the state's phase is `'closed'`. */
  isOver?(state: S): boolean;

  // Timers.
  /**
   * For a game whose clocks are fields of its state: the fields that hold a moment (epoch ms, or
   * null or undefined when that clock is not running). The next deadline is the earliest of them
   * that is set, and an outage moves each one on. A game whose deadline depends on more than these
   * fields writes `nextDeadline` and `shiftClocks` instead.
   */
  readonly clocks?: readonly ClockField<S>[];
  /** The next moment the room has something to do, if any. Default: the earliest of `clocks`, or none once the room is over. */
  nextDeadline?(state: S): number | undefined;
  /** Called when that moment has come. `ctx.now` is the deadline. */
  onDeadline?(state: S, ctx: RuleContext): Step<S>;
  /**
   * Returns the state with its clocks moved on by `ms` (see `GameRules.shiftClocks`). Default: moves
   * every field of `clocks` that is set.
   */
  shiftClocks?(state: S, ms: number): S;

  // Seats and presence.
  /** The room's seats. Default: `state.seats`. */
  seats?(state: S): readonly SeatLike[];
  /**
   * Called when a seat's first socket opened or its last one closed. Default: the seat's
   * `state.seats[i].connected` changes, and everyone gets `<prefix>.presence {id, connected}` when
   * the game declares that event.
   */
  onPresence?(state: S, seat: string, connected: boolean, ctx: RuleContext): Step<S>;
  /** Called when the room was rebuilt in a fresh process, where nobody is connected yet. Default: every seat is marked away. */
  onResumed?(state: S): S;
  /** Called when the room was closed from outside its rules. Default: its phase becomes `'closed'` and every socket closes. */
  onClosed?(state: S, reason: string): Step<S>;
  /**
   * Whether this viewer may join now. Default: nobody may join once the room is over, and a player
   * may join only to a seat it holds.
   */
  admit?(state: S, viewer: Actor): Refusal | null;
  /** Who opens a room: its host, or its first player (default). */
  readonly openerRole?: 'host' | 'player';
  /**
   * Whether this token may close the room. Default: in a game opened by its host, only the host may;
   * otherwise any of the room's seats may.
   */
  mayClose?(state: S, actor: Actor): boolean;
  /** A seat's name. Default: its `name` among the seats. */
  seatName?(state: S, seat: string): string | undefined;

  // Opening.
  /**
   * Makes the room's settings from the body as `settings` read it and a random seed the server drew.
   * Default: the body as read.
   */
  settingsOf?(body: z.output<Body>, seed: number): Settings;
  /**
   * For a game that plays from a deck. `item` is the schema of one item, and every item is checked
   * against it. `of` says which deck a room copies.
   */
  readonly deck?: { readonly item: ZodType; of(settings: Settings): string | undefined };
  /**
   * Changes asked for over HTTP, by name. They are journaled as inputs (see `GameRules.proposals`).
   * The proposal named `join` seats a player by name.
   */
  readonly proposals?: Readonly<Record<string, (state: S, args: any, ctx: RuleContext) => Step<S>>>;

  // The console, the API document and results.
  /** The round in play, for the console's row. Default: none. */
  round?(state: S): number | null;
  /** What an operator's detail shows. Default: `describe`. */
  operatorDetail?(state: S): Record<string, unknown>;
  /** `describe`'s shape, for the API document. Default: an object with the game's name. */
  readonly summarySchema?: ZodType;
  /**
   * A finished game's line in the console, from what it reported (`Outcome.finished.summary`).
   * Default: the summary's own `players` (names, or seats with a `name`), `winner` (a name),
   * `hostName` and `startedAt`, each when present.
   */
  finishedRecord?(summary: any): FinishedRecord;
  /** A finished game's results by its link, for a game that reports results. */
  readonly results?: GameModule['results'];

  // Wire and engine tuning.
  /** The type of the frame that `view` is sent as. Default: the wire's state event, or else the first event. */
  readonly stateEvent?: string;
  /**
   * The game's section of the compact code table. Default: the wire's codes. A game without a wire
   * has none, so every name travels as itself.
   */
  readonly codes?: GameCodes;
  /**
   * Makes a refusal with one of the game's codes. Default: the envelope's codes get the envelope's
   * status, and the game's own codes get 409.
   */
  error?(code: string, message: string): RoomException;
  /** Commands with the same non-null key that wait together are decided together. Default: never. */
  batchKey?(command: CommandOf<Commands>): string | null;
  /** Whether the room may leave memory when nobody watches. Default: when no deadline is set. */
  mayPassivate?(state: S): boolean;
  /** What a snapshot keeps of the state. Default: all of it. */
  snapshotOf?(state: S): unknown;
  /** Rebuilds the state from a snapshot and what the room opened with. Default: the snapshot itself is the state. */
  fromSnapshot?(json: unknown, opened: { readonly deck?: readonly unknown[] }): S;
}

/** A field of the state that holds a moment. It is a number, or null or undefined while that clock is stopped. */
export type ClockField<S> = { [K in keyof S & string]: S[K] extends number | null | undefined ? K : never }[keyof S & string];

/** What `defineGame` reads of a game's wire (`GameWire`, from `defineWire`). */
export interface GameWireOf<Commands extends object> {
  readonly kind: string;
  readonly commands: { readonly [T in keyof Commands]: ZodType<Commands[T]> };
  readonly events: Readonly<Record<string, ZodType>>;
  readonly stateEvent: string;
  readonly codes: GameCodes;
}

/** A command as the engine holds it once parsed (and as the journal records it). */
export interface GameCommand {
  readonly id: string;
  readonly type: string;
  readonly data: any;
}

/** The commands of a game's map, as the engine holds them once parsed: one member per type. */
export type CommandOf<Commands extends object> = {
  [T in keyof Commands & string]: { readonly id: string; readonly type: T; readonly data: Commands[T] };
}[keyof Commands & string];

/** Makes a refusal. The envelope's codes get the envelope's status, and a game's own codes get 409 (not now). */
export function gameError(code: string, message: string): RoomException {
  if ((Object.values(RoomErrorCode) as string[]).includes(code)) return new RoomException(code, message);
  return new RoomException(code, message, { status: Status.conflict });
}

/** Refuses the input at hand with one of the game's codes (409) or the envelope's. */
export function refuse(code: string, message: string): never {
  throw gameError(code, message);
}

/**
 * Turns a game's definition into what the engine and the server take (`GameModule` and its
 * `GameRules`). Every member the definition leaves out gets its default.
 *
 * @example
 * // A game without a wire file gives its name, events and command schemas here.
 * export const counter = defineGame({
 *   name: 'counter',
 *   settings: jsonObject({ name: printableField(32) }),
 *   setup: (s, opened) => ({ code: opened.code, phase: 'counting', n: 0 }),
 *   commands: { 'counter.add': { schema: z.object({}), roles: ['player'], decide: (s) => ({ state: { ...s, n: s.n + 1 }, events: [{ type: 'counter.added', data: { n: s.n + 1 } }], effects: [] }) } },
 *   events: { 'counter.state': z.object({ n: z.int() }), 'counter.added': z.object({ n: z.int() }) },
 *   view: (s) => ({ n: s.n }),
 *   describe: (s) => ({ code: s.code, n: s.n }),
 * });
 */
export function defineGame<S, Commands extends object, Body extends ZodType = ZodType, Settings = z.output<Body>>(
  game: GameDefinition<S, Commands, Body, Settings>,
): GameModule<S, CommandOf<Commands>> {
  const name = game.name ?? game.wire?.kind;
  const events = game.events ?? game.wire?.events;
  if (name === undefined || events === undefined) throw new Error('a game says its name and events, or gives its wire');
  const wireSchemas = (game.wire?.commands ?? {}) as Readonly<Record<string, ZodType>>;
  const commands = Object.fromEntries(
    Object.entries(game.commands as Readonly<Record<string, CommandDefinition<S, unknown>>>).map(([type, c]) => {
      const schema = c.schema ?? wireSchemas[type];
      if (!schema) throw new Error(`${name}: command '${type}' has no schema, in its definition or its wire`);
      return [type, { ...c, schema }];
    }),
  ) as Readonly<Record<string, Required<CommandDefinition<S, unknown>>>>;
  const eventTypes = Object.keys(events);
  const stateEvent = game.stateEvent ?? game.wire?.stateEvent ?? eventTypes[0];
  const prefix = stateEvent.split('.')[0];
  const presenceEvent = eventTypes.includes(`${prefix}.presence`) ? `${prefix}.presence` : undefined;
  const seats = game.seats ?? ((state: S) => (state as Conventional).seats ?? []);
  const isOver = game.isOver ?? ((state: S) => (state as Conventional).phase === 'closed');
  const clocks = clockRules(game.clocks ?? [], isOver);
  const nextDeadline = game.nextDeadline ?? clocks.next;
  const openerRole = game.openerRole ?? 'player';
  const checkDeck = deckChecker(game.deck?.item);

  const onPresence =
    game.onPresence ??
    ((state: S, seat: string, connected: boolean): Step<S> => {
      const all = (state as Conventional).seats ?? [];
      if (!all.some((s) => s.id === seat && s.connected !== connected)) return unchanged(state);
      const next = { ...state, seats: all.map((s) => (s.id === seat ? { ...s, connected } : s)) };
      return { state: next, events: presenceEvent ? [{ type: presenceEvent, data: { id: seat, connected } }] : [] };
    });
  const onResumed =
    game.onResumed ??
    ((state: S): S => {
      const all = (state as Conventional).seats ?? [];
      return all.some((s) => s.connected) ? { ...state, seats: all.map((s) => ({ ...s, connected: false })) } : state;
    });
  const onClosed =
    game.onClosed ??
    ((state: S, reason: string): Step<S> =>
      isOver(state) ? unchanged(state) : { state: { ...state, phase: 'closed' }, effects: [{ kind: 'close', reason }] });

  const rules: GameRules<S, CommandOf<Commands>> = {
    kind: name,
    commandTypes: Object.keys(commands),
    eventTypes,
    stateEvent,
    parseCommand(frame: CommandFrame, role: Role): CommandOf<Commands> {
      const command = Object.prototype.hasOwnProperty.call(commands, frame.type) ? commands[frame.type] : undefined;
      if (!command) throw new RoomException(RoomErrorCode.UnknownType, `unknown command type '${clip(frame.type)}'`);
      if (!command.roles.includes(role)) throw new RoomException(RoomErrorCode.Forbidden, `a ${role} may not send ${frame.type}`);
      return { id: frame.id, type: frame.type, data: validData(command.schema, frame) } as CommandOf<Commands>;
    },
    decide: (state, actor, command, ctx) =>
      outcome(
        commands[command.type].decide(state, command.data, { now: ctx.now, random: ctx.random, id: ctx.id, actor, commandId: command.id }),
      ),
    onSignal(state: S, signal: Signal, ctx: RuleContext): Outcome<S> {
      switch (signal.kind) {
        case 'deadline':
          return game.onDeadline ? outcome(game.onDeadline(state, ctx)) : unchanged(state);
        case 'presence':
          return outcome(onPresence(state, signal.seat, signal.connected, ctx));
        case 'resumed':
          return unchanged(onResumed(state));
        case 'closed':
          return outcome(onClosed(state, signal.reason));
      }
    },
    proposals:
      game.proposals &&
      mapValues(game.proposals, (propose) => (state: S, args: unknown, ctx: RuleContext) => outcome(propose(state, args, ctx))),
    nextDeadline,
    shiftClocks: game.shiftClocks ?? (game.clocks ? clocks.shift : undefined),
    batchKey: game.batchKey ?? (() => null),
    mayPassivate: game.mayPassivate ?? ((state) => nextDeadline(state) === undefined),
    isOver,
    admit:
      game.admit ??
      ((state, viewer) => {
        if (isOver(state)) return { closeCode: CloseCode.roomClosed, reason: 'room closed' };
        if (viewer.role === 'player' && !seats(state).some((s) => s.id === viewer.seat))
          return { closeCode: CloseCode.seatGone, reason: 'not a seat in this room' };
        return null;
      }),
    view: game.view,
    summarize: (state): RoomSummary => {
      const all = seats(state);
      const { code, phase } = state as Conventional;
      return {
        code: code ?? '',
        phase: phase ?? '',
        seats: all.length,
        seatsConnected: all.filter((s) => s.connected).length,
        round: game.round?.(state) ?? null,
      };
    },
    snapshotOf: game.snapshotOf,
  };

  const opening: GameOpening<S, Settings> = {
    settings: (body, seed) => {
      const read = readBody(game.settings, body) as z.output<Body>;
      return game.settingsOf ? game.settingsOf(read, seed) : (read as Settings);
    },
    schema: game.settings,
    openerRole,
    ...(game.deck ? { deckOf: game.deck.of } : {}),
    state: (ids, settings, opened) => {
      if (opened.deck) checkDeck(opened.deck.items);
      return game.setup(settings, { ...ids, ...opened });
    },
  };

  return {
    kind: name,
    rules,
    codes: game.codes ?? game.wire?.codes ?? { kind: name, stateEvent, events: {}, keys: [], enums: {}, ids: [] },
    opening,
    publicSummary: game.describe,
    schemas: {
      summary:
        game.summarySchema ??
        z
          .object({ game: z.literal(name) })
          .loose()
          .meta({ description: `a room of ${name}` }),
    },
    operatorDetail: game.operatorDetail ?? game.describe,
    mayClose:
      game.mayClose ??
      ((state, actor) =>
        openerRole === 'host' ? actor.role === 'host' : actor.role === 'player' && seats(state).some((s) => s.id === actor.seat)),
    error: game.error ?? gameError,
    ...(game.proposals?.join ? { joinProposal: 'join' } : {}),
    ...(game.results ? { results: game.results } : {}),
    finishedRecord: game.finishedRecord ?? conventionalRecord,
    seatName: game.seatName ?? ((state, seat) => seats(state).find((s) => s.id === seat)?.name),
    ...(game.fromSnapshot
      ? { fromSnapshot: (json, opened) => game.fromSnapshot!(json, opened.deck ? { deck: checkDeck(opened.deck) } : {}) }
      : {}),
  };
}

/** Turns a rule's step into the outcome the engine takes, with no events or effects where the step left them out. */
function outcome<S>(step: Step<S>): Outcome<S> {
  return step.events && step.effects ? (step as Outcome<S>) : { ...step, events: step.events ?? [], effects: step.effects ?? [] };
}

function mapValues<A, B>(record: Readonly<Record<string, A>>, f: (value: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
}

/** Derives a game's next deadline, and how an outage shifts its clocks, from the fields that hold its clocks. */
function clockRules<S>(fields: readonly ClockField<S>[], isOver: (state: S) => boolean) {
  const set = (state: S) => fields.filter((f) => typeof state[f] === 'number');
  return {
    next: (state: S): number | undefined => {
      if (isOver(state)) return undefined;
      const moments = set(state).map((f) => state[f] as number);
      return moments.length ? Math.min(...moments) : undefined;
    },
    shift: (state: S, ms: number): S => {
      const moved = set(state);
      return moved.length ? { ...state, ...Object.fromEntries(moved.map((f) => [f, (state[f] as number) + ms])) } : state;
    },
  };
}

/** Reads a finished game's console line from the conventional fields of the summary it reported. */
function conventionalRecord(summary: unknown): FinishedRecord {
  const { players, winner, hostName, startedAt } = (summary ?? {}) as {
    players?: readonly (string | { readonly name?: string })[];
    winner?: unknown;
    hostName?: unknown;
    startedAt?: unknown;
  };
  return {
    hostName: typeof hostName === 'string' ? hostName : null,
    players: (players ?? []).map((p) => (typeof p === 'string' ? p : (p.name ?? ''))),
    winner: typeof winner === 'string' ? winner : null,
    ...(typeof startedAt === 'number' ? { startedAt } : {}),
  };
}

/**
 * Checks a deck's items against the game's item schema, once per copy. The server hands every room
 * that plays the same deck the same frozen copy, so a copy already checked is not read again.
 */
function deckChecker(item: ZodType | undefined): (items: readonly unknown[]) => readonly unknown[] {
  if (!item) return (items) => items;
  const all = z.array(item);
  const checked = new WeakSet<readonly unknown[]>();
  return (items) => {
    if (checked.has(items)) return items;
    const result = all.safeParse(items);
    if (!result.success)
      throw new RoomException(RoomErrorCode.BadData, `the deck does not fit this game: ${result.error.issues[0]?.message ?? 'invalid'}`);
    checked.add(items);
    return items;
  };
}
