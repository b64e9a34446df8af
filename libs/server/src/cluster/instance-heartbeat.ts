import { InstanceHealth, InstanceRepository, InstanceRow, LostLease } from '@app/persistence';
import { JsonLog } from '../config/json-log';
import { DatabaseLink } from './database-link';
import { InstanceIdentity } from './instance-identity';

/** An instance as the console shows it: its last row, aged to now, and whether it still beats. */
export interface InstanceView extends InstanceRow {
  /** `up`: beating; `silent`: no beat for three beats (down, cut off, or frozen); `stopped`: stopped cleanly. */
  readonly status: 'up' | 'silent' | 'stopped';
  /** True for the instance that answered. */
  readonly self: boolean;
}

/** With no periodic beat (tests), another instance counts as silent after this long. */
const DEFAULT_SILENT_AFTER_SECONDS = 15;

/**
 * What the heartbeat renews: the leases of the rooms live here. Writing the instance's row renews
 * them all (a lease lives while its owner's row is fresh), so the beat names no room; it hears
 * back which rooms moved away.
 */
export interface LeaseHolder {
  /**
   * A beat got through: every lease this instance holds is renewed, except these rooms', which
   * another instance took meanwhile or this beat handed to the instance that asked for them.
   */
  renewed(lost: readonly LostLease[]): void;
  /**
   * No beat has renewed the leases for this long (PostgreSQL away or silent). Nothing is let go for
   * it: while nobody can write, nobody can take a room, and the beat that gets through says which
   * rooms (if any) another instance took meanwhile.
   */
  unrenewedFor(ms: number): void;
}

/**
 * The one place an instance writes the registry: one statement at start, one every
 * `intervalMs`, one at stop, never on a command's path, on the cluster's own connections. Each
 * beat also reads every instance's row, which the console is served from, so watching the console
 * costs no query; its row renews the leases of every room live here (PROTOCOL.md section 10), and
 * the same statement says which leases moved away since the last beat that was heard, whatever
 * the number of rooms.
 */
export class InstanceHeartbeat {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private last: { rows: InstanceRow[]; at: number } = { rows: [], at: 0 };
  private health: InstanceHealth = 'ok';
  private renewedAt = performance.now();
  /** The database's time of the last beat whose answer was heard: the next beat reads the moves since. */
  private heardAt?: number;

  constructor(
    private readonly repository: InstanceRepository,
    private readonly identity: InstanceIdentity,
    private readonly rooms: () => number,
    private readonly intervalMs: number,
    private readonly log: JsonLog,
    private readonly holder?: LeaseHolder,
    readonly link = new DatabaseLink(intervalMs),
  ) {}

  /** The first beat (awaited, so the row exists once the server says it started), then the timer. */
  async start(): Promise<void> {
    await this.beat();
    if (this.intervalMs > 0) {
      this.timer = setInterval(() => void this.beat(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Says `draining` at once: the console shows an instance on its way out. */
  async draining(): Promise<void> {
    await this.inFlight;
    this.health = 'draining';
    await this.beat();
  }

  /** The last beat, `stopped`; no beat after it. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
    this.health = 'stopped';
    await this.beat();
  }

  /** Every instance as of the last beat, aged to now. */
  instances(now = Date.now()): InstanceView[] {
    const elapsed = this.last.at ? (now - this.last.at) / 1000 : 0;
    const silentAfter = this.intervalMs > 0 ? (3 * this.intervalMs) / 1000 : DEFAULT_SILENT_AFTER_SECONDS;
    return this.last.rows.map((row) => {
      const self = row.name === this.identity.name;
      // This instance's own row is as fresh as this process: it is answering.
      const seenSecondsAgo = self ? 0 : row.seenSecondsAgo + elapsed;
      const status = row.health === 'stopped' ? 'stopped' : !self && seenSecondsAgo > silentAfter ? 'silent' : 'up';
      return {
        ...row,
        rooms: self ? this.rooms() : row.rooms,
        health: self ? this.health : row.health,
        seenSecondsAgo: Math.round(seenSecondsAgo * 10) / 10,
        status,
        self,
      };
    });
  }

  // One beat at a time: a slow database makes beats rarer, never piled up.
  private beat(): Promise<void> {
    return (this.inFlight ??= this.write().finally(() => (this.inFlight = undefined)));
  }

  private async write(): Promise<void> {
    const holder = this.health === 'stopped' ? undefined : this.holder;
    try {
      const { rows, at, lost } = await this.repository.beat(
        {
          name: this.identity.name,
          url: this.identity.url,
          pid: this.identity.pid,
          startedAt: this.identity.startedAt,
          rooms: this.rooms(),
          health: this.health,
        },
        this.heardAt,
      );
      this.last = { rows, at: Date.now() };
      this.heardAt = at;
      const now = performance.now();
      if (this.link.beatOk(now)) this.log.info('PostgreSQL answers the heartbeat again', { unrenewedMs: Math.round(now - this.renewedAt) });
      this.renewedAt = now;
      holder?.renewed(lost);
    } catch (err) {
      this.link.beatFailed();
      holder?.unrenewedFor(performance.now() - this.renewedAt);
      // The registry is for operators: a missed beat is logged, and the rooms carry on.
      this.log.warn('instance heartbeat failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
