import { invalid } from '@app/protocol';

// The admin API's history cursors. The queries themselves (code, from, to, cursor, limit) are read
// by their schemas (packages/client/src/http/admin.ts). What a cursor holds is the server's own
// affair, and this file reads it.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MICROS = /^-?\d{1,17}$/;
const ROW_ID = /^\d{1,18}$/;

/**
 * Encodes a page's cursor: the last row's exact time (in microseconds) and id, as base64url text.
 * The next page starts after that row. Callers treat the cursor as opaque and pass back the `next`
 * they were given.
 */
export function encodeCursor(us: string, id: string): string {
  return Buffer.from(`${us}.${id}`, 'utf8').toString('base64url');
}

/** Reads the cursor of a page of finished games, whose ids are uuids. Returns undefined when there is none. */
export function finishedCursor(raw: unknown): { finishedUs: string; id: string } | undefined {
  const parts = cursorParts(raw);
  if (!parts) return undefined;
  if (!MICROS.test(parts[0]) || !UUID.test(parts[1])) throw badCursor();
  return { finishedUs: parts[0], id: parts[1] };
}

/** Reads the cursor of a page of refused commands, whose ids are row numbers. Returns undefined when there is none. */
export function refusalCursor(raw: unknown): { atUs: string; id: string } | undefined {
  const parts = cursorParts(raw);
  if (!parts) return undefined;
  if (!MICROS.test(parts[0]) || !ROW_ID.test(parts[1])) throw badCursor();
  return { atUs: parts[0], id: parts[1] };
}

function cursorParts(raw: unknown): [string, string] | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || raw.length > 120 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw badCursor();
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const dot = text.indexOf('.');
  if (dot < 1) throw badCursor();
  return [text.slice(0, dot), text.slice(dot + 1)];
}

function badCursor() {
  return invalid('cursor', "is not a cursor this API gave: pass back a page's `next` as it came");
}

/** Reads a finished game's id, which is a uuid. Returns undefined when `raw` is not one. */
export function finishedId(raw: string): string | undefined {
  const id = raw.toLowerCase();
  return UUID.test(id) ? id : undefined;
}
