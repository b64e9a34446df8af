// The envelope that crosses the wire, whatever the game (PROTOCOL.md section 3).

export type Role = 'host' | 'player' | 'spectator';

export const WIRE_PROFILES = ['json', 'compact-v1', 'compact-v2', 'compact-v3'] as const;
export type WireProfile = (typeof WIRE_PROFILES)[number];

export interface CommandFrame {
  readonly id: string;
  readonly type: string;
  /** The data as the client sent it. A game checks its shape after the type and the role. */
  readonly data: unknown;
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

/** The command every room answers, whatever its game, without waiting behind the room's work. */
export const PING = 'ping';

/** The limits of the wire. */
export const MAX_FRAME_BYTES = 16 * 1024;
export const MAX_ID_LENGTH = 64;
