import { isPrintableText } from '@game-rooms/client';
import { RoomErrorCode, RoomException } from './room-error';

// Small readers for what no HTTP schema reads: a WebSocket command's fields, a CSV's cells. HTTP
// bodies and queries are read by their zod schemas instead (@game-rooms/client's http/, read by
// ./http/read), which name the field too.

/** Reads a field that must be 1 to `max` printable characters after trimming. */
export function printable(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw invalid(field, `must be a string of 1 to ${max} printable characters`);
  const s = printableText(value, max);
  if (s === undefined) throw invalid(field, `must be 1 to ${max} printable characters`);
  return s;
}

/**
 * The text trimmed, when that is 1 to `max` printable characters (counted as the HTTP schemas
 * count them). Otherwise undefined.
 */
export function printableText(value: string, max: number): string | undefined {
  const s = value.trim();
  return isPrintableText(s, max) ? s : undefined;
}

export function invalid(field: string, why: string): RoomException {
  return new RoomException(RoomErrorCode.BadData, `${field} ${why}`);
}
