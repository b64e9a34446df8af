import type { z } from 'zod';
import { clip, CommandFrame, Role, RoomErrorCode, RoomException, validData } from '@app/protocol';
import { TRIVIA_COMMANDS, TRIVIA_EVENTS } from './trivia.wire';

/** Trivia's commands as a room takes them, after validation by their wire schemas (PROTOCOL.md section 3). */
export type TriviaCommandData = { [T in keyof typeof TRIVIA_COMMANDS]: z.output<(typeof TRIVIA_COMMANDS)[T]> };

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

export const TRIVIA_EVENT_TYPES = Object.keys(TRIVIA_EVENTS) as (keyof typeof TRIVIA_EVENTS)[];

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
  // The schema's output is the data as the rules take it: known fields only, each checked.
  return { id: frame.id, type: frame.type, data: validData(TRIVIA_COMMANDS[frame.type], frame) } as RoomCommand;
}
