import { Role } from '@app/protocol';
import { MAX_RECORDED_TYPE_LENGTH } from './room-stats';

/** The longest refusal message kept: a message that quotes a client's data is cut here. */
export const MAX_RECORDED_MESSAGE_LENGTH = 200;

/** A command a room refused, as whoever records refusals gets it: who sent it, what, and why. */
export interface RefusedCommand {
  /** Its arrival, epoch ms. */
  readonly at: number;
  /** Who sent it: a seat's role, or an operator through the admin API. */
  readonly by: Role | 'operator';
  /** The seat's id, for a player (or a spectator's seat). */
  readonly seat?: string;
  /** The type as the client sent it, cut to MAX_RECORDED_TYPE_LENGTH: an unknown type is worth seeing. */
  readonly type: string;
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

/**
 * Told of every refusal a room answers, after the reply went out. It must not block or throw:
 * it is called on the answer path (a recorder buffers and writes later).
 */
export type RefusalHook = (refusal: RefusedCommand) => void;

/** A refusal as recorded: long types and messages cut, so a client cannot make one row large. */
export function refusedCommand(
  at: number,
  by: RefusedCommand['by'],
  seat: string | undefined,
  type: string,
  error: { code: string; status: number; message: string },
): RefusedCommand {
  return {
    at,
    by,
    ...(seat !== undefined ? { seat } : {}),
    type: cut(type, MAX_RECORDED_TYPE_LENGTH),
    code: cut(error.code, MAX_RECORDED_TYPE_LENGTH),
    status: error.status,
    message: cut(error.message, MAX_RECORDED_MESSAGE_LENGTH),
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
