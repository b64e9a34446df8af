import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy that delays every chunk by `delayMs` in each direction, so that a database next door
 * behaves like one `2 * delayMs` away. It can also cut every connection and refuse new ones, to
 * play a database that went away. Or it can go silent: connections stay up (and new ones are
 * accepted), but nothing gets through either way, as with a dead NAT or a failover in progress.
 */
export class DelayProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private cut = false;
  private silent = false;

  constructor(
    private readonly target: { host: string; port: number },
    public delayMs: number,
  ) {}

  /** Starts listening on 127.0.0.1, on `port` or (by default) on a free port, and returns the port. */
  async start(port = 0): Promise<number> {
    this.server = await listenOnLoopback((client) => this.accept(client), port);
    return this.port;
  }

  get port(): number {
    return (this.server?.address() as { port: number }).port;
  }

  /** Rewrites a postgres:// URL to go through this proxy. */
  proxiedUrl(url: string): string {
    return viaLoopbackPort(url, this.port);
  }

  /** Drops every connection and refuses new ones until `restore()`. */
  cutAll(): void {
    this.cut = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Drops every byte either way until `restore()`. The link stays up, but nothing answers. */
  blackHole(): void {
    this.silent = true;
  }

  restore(): void {
    this.cut = false;
    this.silent = false;
  }

  async stop(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    if (this.cut) return void client.destroy();
    const upstream = createConnection(this.target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.sockets.add(client);
    this.sockets.add(upstream);
    this.pipe(client, upstream);
    this.pipe(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  /** Sends each chunk on `delayMs` after it arrived. Equal delays keep the order. */
  private pipe(from: Socket, to: Socket): void {
    from.on('data', (chunk) => {
      if (this.silent) return;
      if (this.delayMs <= 0) return void (to.destroyed || to.write(chunk));
      setTimeout(() => to.destroyed || to.write(chunk), this.delayMs);
    });
  }
}

/** A TCP server on 127.0.0.1 that hands each client to `accept`, once it listens on `port` (0: a free one). */
export async function listenOnLoopback(accept: (client: Socket) => void, port: number): Promise<Server> {
  const server = createServer(accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Returns `url` with its host and port replaced by 127.0.0.1:`port`: the same URL, through a local proxy. */
export function viaLoopbackPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}
