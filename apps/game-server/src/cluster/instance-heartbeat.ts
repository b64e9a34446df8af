import { InstanceHealth, InstanceRepository, InstanceRow, Leases } from '@app/persistence';
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

/** What the heartbeat renews: the leases of the rooms live here, and what to do with the answer. */
export interface LeaseHolder {
  /** The rooms this instance serves, each with its lease's fence. */
  leases(): Leases;
  /** The beat renewed these of the rooms it was given (`asked`); the others are someone else's now. */
  renewed(asked: Leases, renewed: ReadonlySet<string>): void;
  /**
   * No beat has renewed the leases for this long (PostgreSQL away or silent). Nothing is let go for
   * it: while nobody can write, nobody can take a room, and the beat that gets through says which
   * rooms (if any) another instance took meanwhile.
   */
  unrenewedFor(ms: number): void;
}

/**
 * The one place an instance writes the registry: one statement at start, one every
 * `intervalMs`, one at stop, never on a command's path. Each beat also reads every instance's
 * row, which the console is served from, so watching the console costs no query, and renews the
 * leases of every room live here (PROTOCOL.md section 10), all in the same statement.
 */
export class InstanceHeartbeat {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private last: { rows: InstanceRow[]; at: number } = { rows: [], at: 0 };
  private health: InstanceHealth = 'ok';
  private renewedAt = performance.now();

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
      return { ...row, rooms: self ? this.rooms() : row.rooms, health: self ? this.health : row.health, seenSecondsAgo: Math.round(seenSecondsAgo * 10) / 10, status, self };
    });
  }

  // One beat at a time: a slow database makes beats rarer, never piled up.
  private beat(): Promise<void> {
    return (this.inFlight ??= this.write().finally(() => (this.inFlight = undefined)));
  }

  private async write(): Promise<void> {
    const leases = this.health === 'stopped' || !this.holder ? undefined : this.holder.leases();
    try {
      const { rows, renewed } = await this.repository.beat({
        name: this.identity.name,
        url: this.identity.url,
        pid: this.identity.pid,
        startedAt: this.identity.startedAt,
        rooms: this.rooms(),
        health: this.health,
      }, leases);
      this.last = { rows, at: Date.now() };
      const now = performance.now();
      if (this.link.beatOk(now)) this.log.info('PostgreSQL answers the heartbeat again', { unrenewedMs: Math.round(now - this.renewedAt) });
      this.renewedAt = now;
      if (leases) this.holder!.renewed(leases, renewed);
    } catch (err) {
      this.link.beatFailed();
      if (leases) this.holder!.unrenewedFor(performance.now() - this.renewedAt);
      // The registry is for operators: a missed beat is logged, and the rooms carry on.
      this.log.warn('instance heartbeat failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
