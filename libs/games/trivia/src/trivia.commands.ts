import type { z } from 'zod';
import { TRIVIA_COMMANDS } from './trivia.wire';

/** Trivia's commands as a room takes them, after their wire schemas validated them (PROTOCOL.md section 3). */
export type TriviaCommandData = { [T in keyof typeof TRIVIA_COMMANDS]: z.output<(typeof TRIVIA_COMMANDS)[T]> };

export type TriviaCommandType = keyof TriviaCommandData;

export type RoomCommand = {
  [T in TriviaCommandType]: { readonly id: string; readonly type: T; readonly data: TriviaCommandData[T] };
}[TriviaCommandType];
