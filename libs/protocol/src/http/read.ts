import { firstIssueSentence } from '@game-rooms/client';
import { z } from 'zod';
import { RoomErrorCode, RoomException } from '../room-error';

/**
 * Reads `value` with `schema`, or throws a 400 `bad_data` naming the first bad field and what it
 * accepts: `entries[0].pick must be a whole number from 0 to 3`. `what` names the whole value (a
 * body, a query) for when the value itself is wrong: `the body must be a JSON object`.
 */
export function readBody<S extends z.ZodType>(schema: S, value: unknown, what = 'the body'): z.output<S> {
  const read = schema.safeParse(value);
  if (read.success) return read.data;
  throw new RoomException(RoomErrorCode.BadData, firstIssueSentence(read.error, what));
}

/** Reads a query with `schema`. An empty parameter (`?code=`), as a form sends it, counts as absent. */
export function readQuery<S extends z.ZodType>(schema: S, query: Readonly<Record<string, unknown>>): z.output<S> {
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  return readBody(schema, given, 'the query');
}
