/** Reply statuses of PROTOCOL.md section 3. */
export const Status = {
  ok: 200,
  badRequest: 400,
  forbidden: 403,
  unknownType: 404,
  conflict: 409,
  tooFast: 429,
  unavailable: 503,
} as const;
export type StatusCode = (typeof Status)[keyof typeof Status];

/** WebSocket close codes of PROTOCOL.md section 3. */
export const CloseCode = {
  shuttingDown: 1001,
  binaryFrame: 1003,
  frameTooLarge: 1009,
  /**
   * This process let the room go, because its picture of the room was not the database's. Reconnect,
   * and the room loads again.
   */
  roomReloading: 1012,
  tokenInvalid: 4001,
  seatGone: 4003,
  roomClosed: 4004,
  policy: 4008,
  evicted: 4009,
  /** The seat opened a newer socket past its cap (SOCKETS_PER_SEAT), and this one is the oldest. */
  replaced: 4010,
  /** The socket answered no WebSocket ping within the server's window, so its peer is presumed gone. Reconnect. */
  silent: 4011,
} as const;
export type CloseCodeValue = (typeof CloseCode)[keyof typeof CloseCode];

/** Replies with these statuses are not remembered, so a retry with the same id is tried afresh. */
export function isRetryable(status: number): boolean {
  return status === Status.tooFast || status === Status.unavailable;
}

export function statusClass(status: number): '2xx' | '4xx' | '5xx' {
  if (status < 300) return '2xx';
  if (status < 500) return '4xx';
  return '5xx';
}
