import { Role } from '@app/protocol';

/** What the edge reports: frames and bytes out, sockets open, evictions. */
export interface WireObserver {
  frameSent(kind: string, wire: string, bytes: number): void;
  socketOpened(role: Role): void;
  socketClosed(role: Role): void;
  evicted(reason: string): void;
  /** A seat opened one socket more than it may hold, so its oldest socket was closed (4010). */
  socketReplaced(): void;
  /** An upgrade was refused (503) because the instance holds its maximum of sockets. */
  socketRefused(): void;
  /** A socket answered no ping within the window, so it was closed (4011). */
  socketSilent(): void;
  /** What was sent but not yet read by clients changed by this much, over all sockets. */
  queued(bytes: number, frames: number): void;
}

export const WIRE_OBSERVER = Symbol('WIRE_OBSERVER');

export const noWireObserver: WireObserver = {
  frameSent: () => undefined,
  socketOpened: () => undefined,
  socketClosed: () => undefined,
  evicted: () => undefined,
  socketReplaced: () => undefined,
  socketSilent: () => undefined,
  socketRefused: () => undefined,
  queued: () => undefined,
};
