import { InstanceHealth, InstanceRepository, InstanceRow, LostLease } from '@app/persistence';
import { JsonLog } from '../config/json-log';
import { DatabaseLink } from './database-link';
import { InstanceIdentity } from './instance-identity';

/** An instance as the console shows it: its last row, aged to now, and whether it still beats. */
export interface InstanceView extends InstanceRow {
  /**
   * `up` means the instance beats. `silent` means it has missed three beats (it is down, cut off or
   * frozen). `stopped` means it stopped cleanly.
   */
  readonly status: 'up' | 'silent' | 'stopped';
  /** True for the instance that answered. */
  readonly self: boolean;
}

/** When there is no periodic beat (as in tests), another instance counts as silent after this long. */
const DEFAULT_SILENT_AFTER_SECONDS = 15;

/**
 * What the heartbeat renews: the leases of the rooms that live on this instance. Writing the
 * instance's row renews them all, because a lease lives while its owner's row is fresh. So the beat
 * names no room, and it hears back which rooms moved away.
 */
export interface LeaseHolder {
  /**
   * Called when a beat got through. Every lease this instance holds is renewed, except the leases of
   * the rooms in `lost`: another instance took those rooms meanwhile, or this beat handed them to
   * the instance that asked for them.
   */
  renewed(lost: readonly LostLease[]): void;
  /**
   * Called when no beat has renewed the leases for `ms` milliseconds, because PostgreSQL is away or
   * silent. No room is let go because of this. While nobody can write, nobody can take a room, and
   * the beat that gets through says which rooms (if any) another instance took meanwhile.
   */
  unrenewedFor(ms: number): void;
}

/**
 * The one place where an instance writes the registry. It runs one statement at start, one every
 * `intervalMs` and one at stop, on the cluster's own connections and never on a command's path.
 * Each beat also reads every instance's row, and the console is served from these rows, so watching
 * the console costs no query. The instance's row renews the leases of every room live here
 * (PROTOCOL.md section 10). The same statement says which leases moved away since the last beat
 * that was heard, whatever the number of rooms.
 */
export class InstanceHeartbeat {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private last: { rows: InstanceRow[]; at: number } = { rows: [], at: 0 };
  private health: InstanceHealth = 'ok';
  private renewedAt = performance.now();
  /** The database's time at the last beat whose answer was heard. The next beat reads the moves since then. */
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

  /**
   * Beats once, then starts the timer. The first beat is awaited, so the row exists by the time the
   * server says it has started.
   */
  async start(): Promise<void> {
    await this.beat();
    if (this.intervalMs > 0) {
      this.timer = setInterval(() => void this.beat(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Says `draining` at once, so that the console shows this instance on its way out. */
  async draining(): Promise<void> {
    await this.inFlight;
    this.health = 'draining';
    await this.beat();
  }

  /** Beats one last time, with `stopped`, and never beats after that. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
    this.health = 'stopped';
    await this.beat();
  }

  /** Returns every instance as of the last beat, aged to now. */
  instances(now = Date.now()): InstanceView[] {
    const elapsed = this.last.at ? (now - this.last.at) / 1000 : 0;
    const silentAfter = this.intervalMs > 0 ? (3 * this.intervalMs) / 1000 : DEFAULT_SILENT_AFTER_SECONDS;
    return this.last.rows.map((row) => {
      const self = row.name === this.identity.name;
      // This instance's own row is always fresh, because this process is the one answering.
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

  // Only one beat runs at a time, so a slow database makes beats rarer and never piles them up.
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
      // The registry is for operators, so a missed beat is only logged, and the rooms carry on.
      this.log.warn('instance heartbeat failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
