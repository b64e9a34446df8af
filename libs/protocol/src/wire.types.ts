/** The shapes that cross the wire (PROTOCOL.md section 3). */

export type Role = 'host' | 'player' | 'spectator';

export type Phase = 'lobby' | 'question' | 'reveal' | 'finished' | 'closed';

export type WireProfile = 'json' | 'compact-v1';

export interface CommandFrame {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export interface ReplyError {
  readonly code: string;
  readonly message: string;
}

export interface ReplyFrame {
  readonly type: 'reply';
  readonly id: string | null;
  readonly status: number;
  readonly data?: unknown;
  readonly error?: ReplyError;
}

export interface EventFrame<T = unknown> {
  readonly type: string;
  readonly seq: number;
  readonly data: T;
}

export const COMMAND_TYPES = ['room.start', 'room.answer', 'room.rematch', 'room.leave', 'room.kick', 'ping'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The validated form of each command's data. */
export interface CommandData {
  'room.start': Record<string, never>;
  'room.answer': { question: number; choice: number };
  'room.rematch': { vote: boolean };
  'room.leave': Record<string, never>;
  'room.kick': { playerId: string };
  ping: Record<string, never>;
}

export type Command = {
  [T in CommandType]: { readonly id: string; readonly type: T; readonly data: CommandData[T] };
}[CommandType];

export const EVENT_TYPES = [
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
export type EventType = (typeof EVENT_TYPES)[number];

/** Limits of the wire. */
export const MAX_FRAME_BYTES = 16 * 1024;
export const MAX_ID_LENGTH = 64;
