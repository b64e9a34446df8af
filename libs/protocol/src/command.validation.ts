import { RoomErrorCode, RoomException } from './room-error';
import { Command, CommandFrame, CommandType, COMMAND_TYPES, MAX_ID_LENGTH, Role } from './wire.types';

export type FrameParse = { ok: true; frame: CommandFrame } | { ok: false; id: string | null; error: RoomException };

/**
 * Reads one text frame into a command envelope. A frame that is not a JSON object, or has no
 * usable id, fails with id null; one with a usable id but no type fails with that id.
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
  if (typeof value.type !== 'string' || value.type.length === 0) {
    return fail(id, RoomErrorCode.BadFrame, 'type must be a non-empty string');
  }
  const data = value.data === undefined ? {} : value.data;
  if (!isPlainObject(data)) return fail(id, RoomErrorCode.BadData, 'data must be a JSON object');
  return { ok: true, frame: { id, type: value.type, data } };
}

const ROLES: Record<CommandType, readonly Role[]> = {
  'room.start': ['host'],
  'room.answer': ['player'],
  'room.rematch': ['player'],
  'room.leave': ['player'],
  'room.kick': ['host'],
  ping: ['host', 'player', 'spectator'],
};

/**
 * Checks a frame in the order PROTOCOL.md fixes: unknown type (404), role (403), then the
 * shape of data (400). Phase and range checks that need the room's state come later, in the rules.
 */
export function validateCommand(frame: CommandFrame, role: Role): Command {
  if (!isCommandType(frame.type)) {
    throw new RoomException(RoomErrorCode.UnknownType, `unknown command type '${truncate(frame.type)}'`);
  }
  if (!ROLES[frame.type].includes(role)) {
    throw new RoomException(RoomErrorCode.Forbidden, `a ${role} may not send ${frame.type}`);
  }
  const d = frame.data;
  switch (frame.type) {
    case 'room.answer':
      return { id: frame.id, type: frame.type, data: { question: index(d, 'question'), choice: index(d, 'choice') } };
    case 'room.rematch':
      if (typeof d.vote !== 'boolean') throw badData('vote', 'must be true or false');
      return { id: frame.id, type: frame.type, data: { vote: d.vote } };
    case 'room.kick':
      if (typeof d.playerId !== 'string' || d.playerId.length === 0 || d.playerId.length > 64) {
        throw badData('playerId', 'must be a player id');
      }
      return { id: frame.id, type: frame.type, data: { playerId: d.playerId } };
    case 'room.start':
    case 'room.leave':
    case 'ping':
      return { id: frame.id, type: frame.type, data: {} };
  }
}

export function isCommandType(type: string): type is CommandType {
  return (COMMAND_TYPES as readonly string[]).includes(type);
}

function index(data: Record<string, unknown>, field: string): number {
  const v = data[field];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw badData(field, 'must be a whole number from 0');
  return v;
}

function badData(field: string, why: string): RoomException {
  return new RoomException(RoomErrorCode.BadData, `data.${field} ${why}`);
}

function fail(id: string | null, code: RoomErrorCode, message: string): FrameParse {
  return { ok: false, id, error: new RoomException(code, message) };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
