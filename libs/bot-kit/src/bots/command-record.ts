/**
 * One line of the bench's JSONL: a command (or an HTTP call, or a socket connect), timed on the
 * client from send to reply. `ms` is measured on the monotonic clock, and `sentAt` is in epoch ms.
 */
export interface CommandRecord {
  /** The command type (`room.answer`), or `http POST /api/rooms`, or `ws.connect`. */
  readonly type: string;
  /** Epoch milliseconds (fractional) when the frame was handed to the socket. */
  readonly sentAt: number;
  /** The time from send to reply. For a timed-out command, how long it waited before giving up. */
  readonly ms: number;
  /** The reply's status (the HTTP status for HTTP calls), or null when there was no reply. */
  readonly status: number | null;
  readonly timedOut: boolean;
  /** The reply's error code, or why there was no reply (`socket closed 1006`). */
  readonly error?: string;
  /** Where the record came from: room code, seat, game, rung, arm, and so on. */
  readonly [tag: string]: unknown;
}

export type RecordTags = Readonly<Record<string, string | number | boolean | undefined>>;

export type RecordSink = (record: CommandRecord) => void;

/** Epoch milliseconds with sub-millisecond resolution, consistent with `performance.now()`. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
