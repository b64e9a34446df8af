import { Client } from 'pg';
import { ROOM_CHANGES_CHANNEL } from './repositories/room.repository';

export interface RoomChange {
  readonly roomId: string;
  readonly code: string;
  readonly change: 'closed';
  readonly reason: string;
}

/**
 * Holds one connection that LISTENs for room changes made outside the room's actor (the HTTP
 * API, an operator, another instance). It reconnects with backoff when the link drops. While the
 * link is down, changes are not heard, so it reports each reconnect for the caller to
 * resynchronise.
 */
export class RoomChangeListener {
  private client?: Client;
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private backoffMs = 250;

  constructor(
    private readonly url: string,
    private readonly onChange: (change: RoomChange) => void,
    private readonly log: (level: 'info' | 'warn', msg: string) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'game-server-listener' });
    client.on('notification', (msg) => {
      if (msg.channel !== ROOM_CHANGES_CHANNEL || !msg.payload) return;
      try {
        this.onChange(JSON.parse(msg.payload) as RoomChange);
      } catch (err) {
        this.log('warn', `ignored a malformed room change: ${String(err)}`);
      }
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`LISTEN ${ROOM_CHANGES_CHANNEL}`);
    this.client = client;
    this.backoffMs = 250;
  }

  private lost(client: Client, err: Error): void {
    if (this.stopped || this.client !== client) return;
    this.client = undefined;
    this.log('warn', `room change listener lost its connection (${err.message}); reconnecting`);
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.connect().catch((err: Error) => {
        this.log('warn', `room change listener could not reconnect: ${err.message}`);
        this.backoffMs = Math.min(this.backoffMs * 2, 10_000);
        this.scheduleReconnect();
      });
    }, this.backoffMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
