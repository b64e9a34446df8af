import { RoomErrorCode, RoomException } from './room-error';

// Small readers for JSON bodies (HTTP bodies, a game's settings): each names the offending field in its 400.

export function asObject(body: unknown, what = 'body'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(what, 'must be a JSON object');
  return body as Record<string, unknown>;
}

/** 1 to `max` printable characters after trimming. */
export function printable(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw invalid(field, `must be a string of 1 to ${max} printable characters`);
  const s = printableText(value, max);
  if (s === undefined) throw invalid(field, `must be 1 to ${max} printable characters`);
  return s;
}

/** The text trimmed, when that is 1 to `max` printable characters; else undefined. */
export function printableText(value: string, max: number): string | undefined {
  const s = value.trim();
  return s.length < 1 || [...s].length > max || /\p{C}/u.test(s) ? undefined : s;
}

export function wholeNumber(value: unknown, field: string, min: number, max: number, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

export function decimal(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalid(field, `must be a number from ${min} to ${max}`);
  }
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function optionalUuid(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) throw invalid(field, 'must be a UUID');
  return value.toLowerCase();
}

export function invalid(field: string, why: string): RoomException {
  return new RoomException(RoomErrorCode.BadData, `${field} ${why}`);
}
