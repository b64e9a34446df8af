import { invalid } from '@app/protocol';
import { normalizeRoomCode } from '../rooms/room-code';

// The admin API's history queries (finished games, refused commands), read and checked here: a
// bad one is a 400 naming its parameter before anything reaches the database.

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** `limit`: a whole number from 1 to MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE when absent. */
export function pageSize(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_SIZE) {
    throw invalid('limit', `must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return Number(raw);
}

/** `code`: a room code, any case, spaces around ignored. */
export function roomCode(raw: unknown, name = 'code'): string {
  const code = typeof raw === 'string' ? normalizeRoomCode(raw) : null;
  if (!code) throw invalid(name, 'must be a room code: 6 letters and digits');
  return code;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `from` and `to`: an ISO date (a whole day, in UTC) or an ISO date and time with its offset.
 * `from` is the start of its day or its instant; `to` the end of its day (a range of one day is
 * `from=D&to=D`) or its instant. Epoch ms; undefined when absent.
 */
export function dateBound(raw: unknown, name: 'from' | 'to'): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = typeof raw === 'string' ? raw.trim() : '';
  const day = DAY.exec(text);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(y, m - 1, d);
    // Date.UTC rolls 2026-02-31 over into March: a day that does not exist is refused.
    const back = new Date(start);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) throw badDate(name);
    return name === 'from' ? start : start + 86_400_000;
  }
  const ms = INSTANT.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) throw badDate(name);
  return ms;
}

function badDate(name: string) {
  return invalid(name, 'must be an ISO date (2026-12-01) or date and time with an offset (2026-12-01T09:30:00Z)');
}

/** Both bounds, checked against each other. */
export function dateRange(fromRaw: unknown, toRaw: unknown): { from?: number; to?: number } {
  const from = dateBound(fromRaw, 'from');
  const to = dateBound(toRaw, 'to');
  if (from !== undefined && to !== undefined && from >= to) throw invalid('to', 'must be after from');
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MICROS = /^-?\d{1,17}$/;
const ROW_ID = /^\d{1,18}$/;

/**
 * A page's cursor: the last row's exact time (microseconds) and id, as base64url text. The next
 * page starts after it; it is opaque to callers, who pass back the `next` they were given.
 */
export function encodeCursor(us: string, id: string): string {
  return Buffer.from(`${us}.${id}`, 'utf8').toString('base64url');
}

/** The cursor of a finished games page (its id is a uuid), or undefined when absent. */
export function finishedCursor(raw: unknown): { finishedUs: string; id: string } | undefined {
  const parts = cursorParts(raw);
  if (!parts) return undefined;
  if (!MICROS.test(parts[0]) || !UUID.test(parts[1])) throw badCursor();
  return { finishedUs: parts[0], id: parts[1] };
}

/** The cursor of a refused commands page (its id is a row number), or undefined when absent. */
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

/** A finished game's id: a uuid. */
export function finishedId(raw: string): string | undefined {
  const id = raw.toLowerCase();
  return UUID.test(id) ? id : undefined;
}
