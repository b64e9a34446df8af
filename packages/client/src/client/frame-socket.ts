/**
 * The little that a client needs from a socket. The browser's WebSocket has exactly this shape,
 * and so does a fake in a unit test. Nothing here names a game.
 */
export interface FrameSocket {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** WebSocket.OPEN, without needing a WebSocket global to read it from. */
export const SOCKET_OPEN = 1;

export type SocketFactory = (url: string) => FrameSocket;

/** Where the token lives between page loads. The browser's sessionStorage fits. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** setTimeout and clearTimeout, injectable so that tests drive time themselves. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const globalTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
