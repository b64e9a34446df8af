import { EventEmitter } from 'node:events';
import { createConnection, Server, Socket } from 'node:net';
import { listenOnLoopback, viaLoopbackPort } from './delay-proxy';

export interface EgressShaperOptions {
  /** How much the server may send, all connections together, in megabits (10^6 bits) per second. */
  readonly mbps: number;
  /**
   * How many bytes one connection may hold (read from the server, not yet taken by the client's
   * socket) before the shaper stops reading from the server. This is the link's queue. Past it,
   * the server's kernel buffers fill, and then its own send queue, as behind a real slow link.
   */
  readonly bufferBytes?: number;
  /** How many bytes the bucket holds when full, which is what may leave at once after a quiet moment. */
  readonly burstBytes?: number;
}

/** What the shaper has done so far. */
export interface EgressShaperStats {
  readonly connections: number;
  /** Server-to-client bytes passed on to clients. */
  readonly deliveredBytes: number;
  /** Client-to-server bytes passed on. */
  readonly passedBytes: number;
  /** Bytes held now, over every connection. */
  readonly heldBytes: number;
  /** The most one connection ever held, which is never more than `bufferBytes`. */
  readonly maxHeldBytes: number;
  /** How many times a connection stopped reading from the server because its queue was full. */
  readonly pauses: number;
}

// The share one connection gets per turn of the round robin, about one Ethernet frame's payload.
const QUANTUM_BYTES = 1460;
const DEFAULT_BUFFER_BYTES = 64 * 1024;

/** One client and its upstream connection to the server. */
interface Link {
  readonly client: Socket;
  readonly upstream: Socket;
  readonly queue: Buffer[];
  queued: number;
  /** Set when the server finished sending. The client is then ended once the queue is empty. */
  upstreamEnded: boolean;
  paused: boolean;
  closed: boolean;
}

/**
 * A TCP proxy that limits the server's outbound bytes to `mbps`, as a slow link does. One token
 * bucket is shared by every connection, because a link's capacity is shared. The bucket fills at
 * the rate and is spent in round-robin slices. Client-to-server bytes pass unshaped. Each
 * connection's queue is bounded: the shaper reads from the server into a fixed buffer only while
 * the queue has room for a whole read, so it never holds more than `bufferBytes` per connection,
 * and backs up into TCP instead. It emits `pause` (a connection stopped reading from the server)
 * and `resume`.
 */
export class EgressShaper extends EventEmitter {
  private server?: Server;
  private readonly links = new Set<Link>();
  /** Links with bytes queued, in round-robin order. */
  private ready: Link[] = [];
  private bytesPerMs: number;
  private readonly bufferBytes: number;
  private readonly readBytes: number;
  private burstBytes: number;
  private tokens: number;
  private refilledAt = performance.now();
  private timer?: NodeJS.Timeout;
  private delivered = 0;
  private passed = 0;
  private maxHeld = 0;
  private pauses = 0;
  private connections = 0;

  constructor(
    private readonly target: { host: string; port: number },
    options: EgressShaperOptions,
  ) {
    super();
    if (!(options.mbps > 0)) throw new Error(`mbps must be positive, got ${options.mbps}`);
    this.bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
    // Keep each read small enough that it never brings more than the queue has room for.
    this.readBytes = Math.min(16 * 1024, this.bufferBytes);
    if (this.bufferBytes < QUANTUM_BYTES) throw new Error(`bufferBytes must be at least ${QUANTUM_BYTES}`);
    this.bytesPerMs = (options.mbps * 1e6) / 8 / 1000;
    this.burstBytes = options.burstBytes ?? defaultBurst(this.bytesPerMs);
    this.tokens = this.burstBytes;
  }

  /** The rate now, in megabits per second. Setting it takes effect at once (a test can open the link this way). */
  get mbps(): number {
    return (this.bytesPerMs * 8 * 1000) / 1e6;
  }

  set mbps(value: number) {
    if (!(value > 0)) throw new Error(`mbps must be positive, got ${value}`);
    this.refill();
    this.bytesPerMs = (value * 1e6) / 8 / 1000;
    this.burstBytes = defaultBurst(this.bytesPerMs);
    this.pump();
  }

  /** Starts listening on 127.0.0.1, on `port` or (by default) on a free port, and returns the port. */
  async start(port = 0): Promise<number> {
    this.server = await listenOnLoopback((client) => this.accept(client), port);
    return this.port;
  }

  get port(): number {
    return (this.server?.address() as { port: number }).port;
  }

  /** The server's http:// (or ws://) URL rewritten to go through the shaper. */
  shapedUrl(url: string): string {
    return viaLoopbackPort(url, this.port).replace(/\/$/, '');
  }

  stats(): EgressShaperStats {
    let held = 0;
    for (const l of this.links) held += this.held(l);
    return {
      connections: this.connections,
      deliveredBytes: this.delivered,
      passedBytes: this.passed,
      heldBytes: held,
      maxHeldBytes: this.maxHeld,
      pauses: this.pauses,
    };
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const l of this.links) this.close(l);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    this.connections++;
    client.setNoDelay(true);
    const readBuffer = Buffer.allocUnsafe(this.readBytes);
    let link!: Link;
    const upstream = createConnection({
      ...this.target,
      allowHalfOpen: true,
      // Reads land in one fixed buffer, so a read is never larger than the room it was given.
      onread: { buffer: readBuffer, callback: (n, buf) => this.fromServer(link, Buffer.from(buf.subarray(0, n))) },
    });
    upstream.setNoDelay(true);
    link = { client, upstream, queue: [], queued: 0, upstreamEnded: false, paused: false, closed: false };
    this.links.add(link);
    // Client-to-server bytes pass as they come, with the usual backpressure.
    client.on('data', (chunk) => {
      this.passed += chunk.length;
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    client.on('end', () => upstream.end());
    client.on('drain', () => {
      this.resumeIfRoom(link);
      this.pump();
    });
    upstream.on('end', () => {
      link.upstreamEnded = true;
      if (link.queued === 0) client.end();
    });
    const close = () => this.close(link);
    client.on('close', close).on('error', close);
    upstream.on('error', close);
    // What the server sent before it closed is still on the link, and it reaches the client before the close.
    upstream.on('close', () => {
      link.upstreamEnded = true;
      if (link.queued === 0) close();
    });
  }

  /** Queues bytes read from the server for the bucket. Returns false, which pauses the read, when the queue is full. */
  private fromServer(link: Link, chunk: Buffer): boolean {
    if (link.closed) return false;
    if (link.queued === 0) this.ready.push(link);
    link.queue.push(chunk);
    link.queued += chunk.length;
    this.maxHeld = Math.max(this.maxHeld, this.held(link));
    this.pump();
    if (this.hasRoom(link)) return true;
    link.paused = true;
    this.pauses++;
    this.emit('pause');
    return false;
  }

  /** What a connection holds: its queue, plus what its client's socket has not yet handed to the kernel. */
  private held(link: Link): number {
    return link.queued + link.client.writableLength;
  }

  private hasRoom(link: Link): boolean {
    return this.held(link) + this.readBytes <= this.bufferBytes;
  }

  private resumeIfRoom(link: Link): void {
    if (!link.paused || link.closed || !this.hasRoom(link)) return;
    link.paused = false;
    link.upstream.resume();
    this.emit('resume');
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burstBytes, this.tokens + (now - this.refilledAt) * this.bytesPerMs);
    this.refilledAt = now;
  }

  /** Spends the tokens on the queued links in turn, then waits for the bucket to refill. */
  private pump(): void {
    this.refill();
    let blocked = 0;
    while (this.ready.length && this.tokens >= 1 && blocked < this.ready.length) {
      const link = this.ready.shift()!;
      if (link.closed || link.queued === 0) continue;
      // A client that is not reading keeps its place and its bytes, and the link's capacity goes to others.
      if (link.client.writableNeedDrain) {
        this.ready.push(link);
        blocked++;
        continue;
      }
      blocked = 0;
      const n = Math.min(QUANTUM_BYTES, Math.floor(this.tokens), link.queued);
      const slice = take(link, n);
      this.tokens -= n;
      this.delivered += n;
      link.client.write(slice);
      this.maxHeld = Math.max(this.maxHeld, this.held(link));
      if (link.queued > 0) this.ready.push(link);
      else if (link.upstreamEnded) link.client.end(() => (link.upstream.destroyed ? this.close(link) : undefined));
      this.resumeIfRoom(link);
    }
    if (this.timer || !this.ready.some((l) => !l.client.writableNeedDrain)) return;
    const wait = Math.max(1, Math.ceil((Math.min(QUANTUM_BYTES, this.burstBytes) - this.tokens) / this.bytesPerMs));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, wait);
  }

  private close(link: Link): void {
    if (link.closed) return;
    link.closed = true;
    link.client.destroy();
    link.upstream.destroy();
    link.queue.length = 0;
    link.queued = 0;
    this.links.delete(link);
    this.ready = this.ready.filter((l) => l !== link);
  }
}

/** The default burst: 20 ms of the rate, and at least a few slices. It is small enough that the rate holds over short windows. */
function defaultBurst(bytesPerMs: number): number {
  return Math.max(4 * QUANTUM_BYTES, Math.round(bytesPerMs * 20));
}

/** Takes the first `n` bytes off a link's queue and returns them. */
function take(link: Link, n: number): Buffer {
  const parts: Buffer[] = [];
  let left = n;
  while (left > 0) {
    const head = link.queue[0];
    if (head.length <= left) {
      parts.push(head);
      link.queue.shift();
      left -= head.length;
    } else {
      parts.push(head.subarray(0, left));
      link.queue[0] = head.subarray(left);
      left = 0;
    }
  }
  link.queued -= n;
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}
