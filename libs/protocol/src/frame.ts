import { RoomErrorCode, RoomException } from './room-error';
import { checkData, CommandFrame, MAX_ID_LENGTH } from '@game-rooms/client';
import type { z } from 'zod';
import { isStorableText, unstorable } from './storable';

export type FrameParse = { ok: true; frame: CommandFrame } | { ok: false; id: string | null; error: RoomException };

/**
 * Reads one text frame into a command envelope. A frame that is not a JSON object, or has no
 * usable id, fails with id null. A frame with a usable id but no type fails with that id. `data`
 * is passed on as sent, unless it holds a text that PostgreSQL cannot store (a 400 names it).
 * Whether the data's shape is right is decided later, after the type and the role (PROTOCOL.md's
 * precedence: 404, then 403, then 400).
 */
export function parseFrame(text: string): FrameParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(null, RoomErrorCode.BadFrame, 'frame is not valid JSON');
  }
  if (!isPlainObject(value)) return fail(null, RoomErrorCode.BadFrame, 'frame must be a JSON object');
  const id = value.id;
  if (typeof id !== 'string' || id.length < 1 || id.length > MAX_ID_LENGTH) {
    return fail(null, RoomErrorCode.BadId, `id must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  }
  // An id is remembered with its reply, and replies ride in the room's snapshots, so it must be storable.
  if (!isStorableText(id)) return fail(null, RoomErrorCode.BadId, 'id must not hold a NUL character or a lone surrogate');
  if (typeof value.type !== 'string' || value.type.length === 0) {
    return fail(id, RoomErrorCode.BadFrame, 'type must be a non-empty string');
  }
  if (!isStorableText(value.type)) return fail(id, RoomErrorCode.BadFrame, 'type must not hold a NUL character or a lone surrogate');
  const data = value.data === undefined ? {} : value.data;
  // Check the data here so that, whatever a game makes of it, no text in it can make the room's journal unstorable.
  const why = unstorable(data, 'data');
  if (why !== undefined) return fail(id, RoomErrorCode.BadData, why);
  return { ok: true, frame: { id, type: value.type, data } };
}

/** A command's data as an object, or a 400 that names the data. */
export function dataObject(frame: CommandFrame): Record<string, unknown> {
  if (!isPlainObject(frame.data)) throw new RoomException(RoomErrorCode.BadData, 'data must be a JSON object');
  return frame.data;
}

/**
 * A command's data as its wire schema takes it, or a 400 naming the first wrong field, such as
 * `data.choice must be a whole number from 0`. The schema is the client package's, the same one
 * the client is typed by.
 */
export function validData<S extends z.ZodType>(schema: S, frame: CommandFrame): z.output<S> {
  const checked = checkData(schema, frame.data);
  if (!checked.ok) throw new RoomException(RoomErrorCode.BadData, checked.message);
  return checked.data;
}

export function badData(field: string, why: string): RoomException {
  return new RoomException(RoomErrorCode.BadData, `data.${field} ${why}`);
}

/** Bounds a client-written string so that it may appear in a message, a log line or a label. */
export function clip(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(id: string | null, code: RoomErrorCode, message: string): FrameParse {
  return { ok: false, id, error: new RoomException(code, message) };
}
