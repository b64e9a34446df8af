import type { z } from 'zod';

// What a game's event schemas say about the compact codes, beyond their shapes. A game marks a
// field with one of the helpers below, and the codes are then derived from the schemas alone.

/** What a field's schema says to the derivation of the compact codes. */
export interface KeyNote {
  /** The field's string values (or arrays of strings) are ids, which each socket numbers. */
  readonly id?: boolean;
  /** The pass in which the field's key, and every key under it, is numbered (0 unless marked). */
  readonly pass?: number;
  /** Set when the field's enum values go as text, so the derivation gives its key no enum. */
  readonly plain?: boolean;
  /** The values a text field usually takes. They are sent as their positions, as an enum's values are. */
  readonly values?: readonly string[];
  /** The field's key is not numbered: it goes as its own text, and so do the keys under it. */
  readonly text?: boolean;
}

// The notes live in a WeakMap rather than in zod's `.meta()`. They are the wire's business, so they
// stay out of the JSON Schemas and OpenAPI documents that zod writes from the same schemas.
// A note is attached to the schema instance it was given. Wrappers (`.optional()`, `.nullable()`,
// `z.array`) keep it, because the walk looks inside them. zod's copying methods (`.min()`,
// `.meta()`, `.describe()`) return a new instance without it, so mark a field last.
const notes = new WeakMap<z.ZodType, KeyNote>();

function note<S extends z.ZodType>(schema: S, added: KeyNote): S {
  notes.set(schema, { ...notes.get(schema), ...added });
  return schema;
}

/** The note on this very schema (not on the schemas it wraps). */
export function keyNoteOf(schema: z.ZodType): KeyNote | undefined {
  return notes.get(schema);
}

/** Marks a field whose strings are ids (a player's, a seat's). Each socket numbers the ids it was sent. */
export function idField<S extends z.ZodType>(schema: S): S {
  return note(schema, { id: true });
}

/**
 * Marks a field whose key, and every key under it, is numbered after all keys of earlier passes.
 * This is how a key added to a game that has shipped goes at the end of its list, and keeps every
 * existing key's code. Pass 1 is the first pass after the default one.
 */
export function laterKey<S extends z.ZodType>(schema: S, pass = 1): S {
  return note(schema, { pass });
}

/**
 * Marks a field added to a game whose code table has shipped, when its key must not take a letter:
 * the key goes as its own text, and so does every key under it. A client holding the table as it
 * shipped decodes such a field as it is (a letter it does not know would stop it), and the shipped
 * table stays byte for byte what it was. A table has 52 letters in all; trivia's first table took 47.
 */
export function textKey<S extends z.ZodType>(schema: S): S {
  return note(schema, { text: true });
}

/**
 * Marks a text field with the values it usually takes (a close's reason). Each of them goes as its
 * position in this list, and any other value goes as text. The list only ever grows at its end.
 */
export function usualValues<S extends z.ZodType>(schema: S, values: readonly string[]): S {
  return note(schema, { values });
}

/** Marks an enum field whose values go as text. Its key gets no enum in the codes, wherever it appears. */
export function plainEnum<S extends z.ZodType>(schema: S): S {
  return note(schema, { plain: true });
}
