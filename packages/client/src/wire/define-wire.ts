import type { GameCodes } from '../codec/code-table.js';
import { ReconnectingClient, type ReconnectingClientOptions } from '../client/reconnecting-client.js';
import type { CommandsOf, EventsOf, SchemaMap } from '../schema.js';
import { type CompactRules, deriveCodes } from './derive-codes.js';

/**
 * What a game's folder declares of its wire: its commands and events as zod schemas, and the
 * compact rules that a schema cannot express.
 */
export interface WireDefinition<C extends SchemaMap, E extends SchemaMap> {
  /** The game's name, as rooms and the code table know it. */
  readonly kind: string;
  /** The shape of `data` the server accepts, by command type. */
  readonly commands: C;
  /** The shape of `data` the room sends, by event type. The declaration order gives the events' codes. */
  readonly events: E;
  /** The event that carries the whole room as one viewer sees it. It is the first frame of every socket. */
  readonly stateEvent: keyof E & string;
  /** Sticky fields, defaults and compact-v3's rules, by event type (see `EventCodes`). */
  readonly compact?: { readonly [K in keyof E]?: CompactRules };
  /** Event types whose keys are numbered first, in this order (see `deriveCodes`). */
  readonly keyOrder?: readonly (keyof E & string)[];
}

/** A game's wire with its compact codes, derived from its schemas. */
export interface GameWire<C extends SchemaMap = SchemaMap, E extends SchemaMap = SchemaMap> extends WireDefinition<C, E> {
  readonly codes: GameCodes;
}

/**
 * Builds a game's wire, as its folder exports it. The server validates with its schemas and
 * encodes with its codes, and a client takes its types from it.
 *
 * @example
 * export const COUNTER_WIRE = defineWire({
 *   kind: 'counter',
 *   commands: { 'counter.add': commandData({ by: integerField('must be a whole number', 1, 10) }) },
 *   events: { 'counter.state': z.object({ total: z.number() }), 'counter.added': z.object({ by: z.number() }) },
 *   stateEvent: 'counter.state',
 * });
 */
export function defineWire<C extends SchemaMap, E extends SchemaMap>(definition: WireDefinition<C, E>): GameWire<C, E> {
  return { ...definition, codes: deriveCodes(definition) };
}

/** What a client sends to a game of this wire, by command type. */
export type WireCommands<W extends { readonly commands: SchemaMap }> = CommandsOf<W['commands']>;

/** What a client of this wire receives, by event type. */
export type WireEvents<W extends { readonly events: SchemaMap }> = EventsOf<W['events']>;

/** A seat's connection to a game of this wire. `send` and `on` take only the game's types and shapes. */
export type ClientOf<W extends { readonly commands: SchemaMap; readonly events: SchemaMap }> = ReconnectingClient<
  WireEvents<W>,
  WireCommands<W>
>;

/** A reconnecting client typed by a game's wire: `createClient(TRIVIA_WIRE, options)`. */
export function createClient<W extends { readonly commands: SchemaMap; readonly events: SchemaMap }>(
  wire: W,
  options: ReconnectingClientOptions,
): ClientOf<W> {
  void wire;
  return new ReconnectingClient(options);
}
