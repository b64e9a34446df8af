import { IncomingMessage } from 'node:http';

/** The server (or a proxy) answered a WebSocket upgrade with an HTTP status instead of 101. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    /** The refusal's `Retry-After`, in seconds, when it gave one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(
      `the server refused the WebSocket upgrade with HTTP ${status}${retryAfterSeconds !== undefined ? ` (retry after ${retryAfterSeconds} s)` : ''}`,
    );
  }

  /** Builds the refusal from what a `ws` client's 'unexpected-response' event carries. */
  static of(res: IncomingMessage): UpgradeRefused {
    const retryAfter = res.headers['retry-after'];
    return new UpgradeRefused(res.statusCode ?? 0, retryAfter === undefined ? undefined : Number(retryAfter));
  }
}
