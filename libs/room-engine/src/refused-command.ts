import { Role } from '@app/protocol';
import { MAX_RECORDED_TYPE_LENGTH } from './room-stats';

/** The longest refusal message kept. A message that quotes a client's data is cut here. */
export const MAX_RECORDED_MESSAGE_LENGTH = 200;

/** A command a room refused, as the refusal recorder receives it: who sent it, what it was, and why it was refused. */
export interface RefusedCommand {
  /** When the command arrived, in epoch ms. */
  readonly at: number;
  /** Who sent it: a seat's role, or an operator through the admin API. */
  readonly by: Role | 'operator';
  /** The seat's id, for a player (or a spectator's seat). */
  readonly seat?: string;
  /** The type as the client sent it, cut to MAX_RECORDED_TYPE_LENGTH. It is kept because an unknown type is worth seeing. */
  readonly type: string;
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

/**
 * Hears of every refusal a room answers, after the reply went out. It must not block or throw,
 * because it is called on the answer path; a recorder buffers refusals and writes them later.
 */
export type RefusalHook = (refusal: RefusedCommand) => void;

/** Builds a refusal as it is recorded. Long types and messages are cut, so that a client cannot make one row large. */
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
