import type { z } from 'zod';
import { type EventCodes, type GameCodes, KEY_LETTERS } from '../codec/code-table.js';
import type { SchemaMap } from '../schema.js';
import { keyNoteOf } from './wire-notes.js';

/**
 * What a game declares beside its event schemas for the compact profiles: the rules that a schema
 * cannot express (which fields rarely change, their defaults, compact-v3's rules), by event type.
 * The code itself is never declared, because it is the event's position among the schemas.
 */
export type CompactRules = Omit<EventCodes, 'code'>;

/** What the compact codes of one game are derived from. */
export interface CodesSource {
  readonly kind: string;
  readonly stateEvent: string;
  readonly events: SchemaMap;
  readonly compact?: Readonly<Record<string, CompactRules | undefined>>;
  /** Event types whose keys are numbered first, in this order. The other events follow in declaration order. */
  readonly keyOrder?: readonly string[];
}

/** One field met on the walk: its key and what its schema says. */
interface Field {
  readonly key: string;
  readonly pass: number;
  readonly id: boolean;
  readonly plain: boolean;
  readonly values?: readonly string[];
}

/**
 * A game's section of the compact code table, derived from its event schemas. The rules that keep
 * a shipped table stable are these:
 * - An event's code is its position in the events' declaration: a new event is declared last.
 * - Keys are numbered in passes (see `laterKey`). In each pass the events are walked in
 *   `keyOrder`, then in declaration order, and each object's fields in declaration order, depth
 *   first. A key gets the next number the first time it is met. A key added to a shipped game is
 *   marked for a later pass than any before, so it goes at the end and no existing key moves.
 * - A key whose schema is an enum (or a list of one), or a text field marked with `usualValues`,
 *   sends its values as their positions in that list, and such a list only ever grows at its end.
 *   Two different lists under one key are a mistake that the derivation refuses. A key marked
 *   `plainEnum` anywhere gets no list.
 * - A key marked `textKey` is not numbered at all: it goes as its own text, and so does every
 *   key under it. This is how a key is added once the table is full, or without a new letter
 *   that the clients holding the shipped table could not decode.
 * - The keys marked with `idField` are numbered per socket. Their order carries no meaning, so
 *   they are listed sorted.
 */
export function deriveCodes(source: CodesSource): GameCodes {
  const types = Object.keys(source.events);
  if (!types.includes(source.stateEvent)) throw new Error(`${source.kind}: the state event ${source.stateEvent} has no schema`);
  for (const type of [...Object.keys(source.compact ?? {}), ...(source.keyOrder ?? [])]) {
    if (!types.includes(type)) throw new Error(`${source.kind}: ${type} is not one of its events`);
  }
  const events: Record<string, EventCodes> = {};
  types.forEach((type, code) => (events[type] = { code, ...source.compact?.[type] }));

  const walkOrder = [...new Set([...(source.keyOrder ?? []), ...types])];
  const fields = walkOrder.flatMap((type) => fieldsOf(source.events[type]!, 0));
  return {
    kind: source.kind,
    stateEvent: source.stateEvent,
    events,
    keys: keysOf(source.kind, fields),
    enums: enumsOf(source.kind, fields),
    ids: [...new Set(fields.filter((f) => f.id).map((f) => f.key))].sort(),
  };
}

function keysOf(kind: string, fields: readonly Field[]): string[] {
  const keys: string[] = [];
  const passes = [...new Set(fields.map((f) => f.pass))].sort((a, b) => a - b);
  for (const pass of passes) {
    for (const f of fields) if (f.pass === pass && !keys.includes(f.key)) keys.push(f.key);
  }
  if (keys.length > KEY_LETTERS.length)
    throw new Error(`${kind}: ${keys.length} keys, more than the ${KEY_LETTERS.length} letters a key can be sent as`);
  return keys;
}

function enumsOf(kind: string, fields: readonly Field[]): Record<string, readonly string[]> {
  const enums: Record<string, readonly string[]> = {};
  const plain = new Set(fields.filter((f) => f.plain).map((f) => f.key));
  for (const f of fields) {
    if (!f.values || plain.has(f.key)) continue;
    const known = enums[f.key];
    if (known && known.join('\n') !== f.values.join('\n')) throw new Error(`${kind}: the key ${f.key} has two different enums`);
    enums[f.key] = f.values;
  }
  return enums;
}

/** The fields of an object schema and of every object under it, depth first, in declaration order. */
function fieldsOf(schema: z.ZodType, pass: number): Field[] {
  return unwrap(schema, pass).shapes.flatMap((shape) => fieldsOfShape(shape, pass));
}

function fieldsOfShape(shape: Record<string, z.ZodType>, pass: number): Field[] {
  const out: Field[] = [];
  for (const [key, child] of Object.entries(shape)) {
    const field = unwrap(child, pass);
    // A key that goes as text (`textKey`) is not numbered, nor is anything under it.
    if (field.text) continue;
    out.push({ key, pass: field.pass, id: field.id, plain: field.plain, values: field.values });
    for (const nested of field.shapes) out.push(...fieldsOfShape(nested, field.pass));
  }
  return out;
}

interface Unwrapped {
  pass: number;
  text: boolean;
  id: boolean;
  plain: boolean;
  values?: readonly string[];
  /** The object shapes the value may take: one for an object, or one per object of a union. */
  shapes: Record<string, z.ZodType>[];
}

// zod 4's internal definition, as far as the walk reads it.
interface Def {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Record<string, string | number>;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/**
 * Looks through optional, nullable, default, array and the like to what a field holds, and
 * gathers the notes on the way.
 */
function unwrap(schema: z.ZodType, pass: number): Unwrapped {
  const found: Unwrapped = { pass, text: false, id: false, plain: false, shapes: [] };
  let current: z.ZodType | undefined = schema;
  while (current) {
    const note = keyNoteOf(current);
    if (note) {
      found.pass = Math.max(found.pass, note.pass ?? 0);
      found.id ||= note.id === true;
      found.plain ||= note.plain === true;
      found.text ||= note.text === true;
      found.values ??= note.values;
    }
    const def = defOf(current);
    if (def.type === 'enum' && def.entries) found.values ??= Object.values(def.entries).map(String);
    if (def.type === 'object' && def.shape) found.shapes.push(def.shape);
    if (def.type === 'union' && def.options) {
      for (const option of def.options) found.shapes.push(...unwrap(option, pass).shapes);
    }
    current = def.innerType ?? def.element ?? def.in;
  }
  return found;
}
