import { badData, clip, CommandFrame, dataObject, Role, RoomErrorCode, RoomException } from '@app/protocol';

/** Trivia's commands as a room takes them, after validation (PROTOCOL.md section 3). */
export interface TriviaCommandData {
  'room.start': Record<string, never>;
  'room.answer': { question: number; choice: number };
  'room.rematch': { vote: boolean };
  'room.leave': Record<string, never>;
  'room.kick': { playerId: string };
}

export type TriviaCommandType = keyof TriviaCommandData;

export type RoomCommand = {
  [T in TriviaCommandType]: { readonly id: string; readonly type: T; readonly data: TriviaCommandData[T] };
}[TriviaCommandType];

const ROLES: Record<TriviaCommandType, readonly Role[]> = {
  'room.start': ['host'],
  'room.answer': ['player'],
  'room.rematch': ['player'],
  'room.leave': ['player'],
  'room.kick': ['host'],
};

export const TRIVIA_COMMAND_TYPES = Object.keys(ROLES) as TriviaCommandType[];

export const TRIVIA_EVENT_TYPES = [
  'room.state',
  'player.joined',
  'player.left',
  'player.presence',
  'question.open',
  'question.progress',
  'question.closed',
  'game.finished',
  'rematch.open',
  'rematch.decided',
  'room.closed',
] as const;

function isTriviaCommandType(type: string): type is TriviaCommandType {
  return Object.prototype.hasOwnProperty.call(ROLES, type);
}

/**
 * Checks a frame in the order PROTOCOL.md fixes: unknown type (404), role (403), then the
 * shape of data (400). Phase and range checks that need the room's state come later, in the rules.
 */
export function parseTriviaCommand(frame: CommandFrame, role: Role): RoomCommand {
  if (!isTriviaCommandType(frame.type)) {
    throw new RoomException(RoomErrorCode.UnknownType, `unknown command type '${clip(frame.type)}'`);
  }
  if (!ROLES[frame.type].includes(role)) {
    throw new RoomException(RoomErrorCode.Forbidden, `a ${role} may not send ${frame.type}`);
  }
  const d = dataObject(frame);
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
      return { id: frame.id, type: frame.type, data: {} };
  }
}

function index(data: Record<string, unknown>, field: string): number {
  const v = data[field];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw badData(field, 'must be a whole number from 0');
  return v;
}
