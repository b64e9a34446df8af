import { z } from 'zod';

// The building blocks of every HTTP shape (and of the games' settings). Each field carries what it
// accepts as its one error message, so that a 400 says it (readBody puts the field's name in
// front), and the API document shows the same limits from the same numbers. This file is
// browser-safe: it has no Node imports.

/** Control, format and separator characters, which a name or a question may not hold. */
const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/**
 * Whether a text, already trimmed, is 1 to `max` printable characters (counted in characters, not
 * UTF-16 units). Every name, question and CSV cell must be.
 */
export function isPrintableText(trimmed: string, max: number): boolean {
  return trimmed.length >= 1 && [...trimmed].length <= max && !NOT_PRINTABLE.test(trimmed);
}

/** A text of 1 to `max` printable characters after trimming, counted in characters, not UTF-16 units. */
export function printableField(max: number) {
  const accepts = `must be 1 to ${max} printable characters`;
  return z
    .string({ error: accepts })
    .trim()
    .refine((s) => isPrintableText(s, max), accepts)
    .meta({ minLength: 1, maxLength: max, description: `${max} printable characters at most, trimmed` });
}

/** A whole number from `min` to `max`. */
export function wholeField(min: number, max: number) {
  const accepts = `must be a whole number from ${min} to ${max}`;
  return z.number({ error: accepts }).int(accepts).min(min, accepts).max(max, accepts);
}

/** A number (fractions allowed) from `min` to `max`. */
export function decimalField(min: number, max: number, unit = '') {
  const accepts = `must be a number${unit} from ${min} to ${max}`;
  return z.number({ error: accepts }).min(min, accepts).max(max, accepts);
}

/** A UUID of any version (the built-in deck's id is a hand-made one), read in lower case. */
export function uuidField() {
  return z.guid({ error: 'must be a UUID' }).transform((s) => s.toLowerCase());
}

/** A whole number as a query string carries it: digits only, so `1e3`, ` 8` and `2.5` are refused. */
export function wholeNumberQuery(min: number, max: number) {
  const accepts = `must be a whole number from ${min} to ${max}`;
  return z
    .string({ error: accepts })
    .regex(/^\d{1,15}$/, accepts)
    .transform(Number)
    .pipe(wholeField(min, max));
}

/** A JSON object whose fields are read as `shape` says, and whose other fields are ignored. */
export function jsonObject<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape, { error: 'must be a JSON object' });
}

/** Upper-case letters and digits without look-alikes, so no 0/O or 1/I/L (PROTOCOL.md section 1). */
export const ROOM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ROOM_CODE_LENGTH = 6;

/** A room code as a person types it, in any case and with spaces around it ignored. It is read in upper case. */
export function roomCodeField() {
  const accepts = `must be a room code: ${ROOM_CODE_LENGTH} letters and digits`;
  return z
    .string({ error: accepts })
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.string().regex(new RegExp(`^[${ROOM_CODE_ALPHABET}]{${ROOM_CODE_LENGTH}}$`), accepts))
    .meta({
      minLength: ROOM_CODE_LENGTH,
      maxLength: ROOM_CODE_LENGTH,
      description: 'the room code, 6 characters; case is ignored',
      example: 'K7QMPD',
    });
}
