import WebSocket from 'ws';

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * Makes the frames sent to one socket in one turn of the event loop leave in one write. A
 * confirmed step sends a reply and events to the same sockets, and answers of one room that are
 * confirmed together send several events to each socket. Every write to a socket is a system call,
 * and in the ladder's profile those calls (writev) were half of the server's busy time. So a
 * socket is corked at its first frame of a turn, and uncorked once the turn's callbacks have run.
 * The frames still leave in the turn that sent them, only as one write instead of several.
 */
export class TurnCork {
  private readonly held = new Set<Corkable>();
  private scheduled = false;

  /** Holds the socket under `ws` until the end of this turn. It does nothing when the socket is already held. */
  hold(ws: WebSocket): void {
    // ws keeps its TCP socket private, so reach for it. Cork and uncork nest, so ws's own cork per
    // frame still works inside ours, and only our uncork lets the buffered frames go.
    const socket = (ws as unknown as { _socket?: Corkable })._socket;
    if (!socket || this.held.has(socket)) return;
    socket.cork();
    this.held.add(socket);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.release());
  }

  /** How many sockets are held now (for tests). */
  get holding(): number {
    return this.held.size;
  }

  private release(): void {
    this.scheduled = false;
    for (const socket of this.held) socket.uncork();
    this.held.clear();
  }
}

/** The process has one event loop, so one cork serves every socket. */
export const turnCork = new TurnCork();
