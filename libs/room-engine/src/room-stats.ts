/** One handled command, as the admin API shows it. */
export interface CommandRecord {
  readonly type: string;
  readonly at: number;
  readonly mailboxWaitMs: number;
  readonly ms: number;
  readonly status: number;
  readonly roundTrips: number;
}

/** The longest command type kept: a client's 15,000-character type is not stored 100 times. */
export const MAX_RECORDED_TYPE_LENGTH = 64;

/** A room's counters for operators: commands handled, their latency, the last 100. */
export class RoomStats {
  readonly createdAt: number;
  commands = 0;
  lastCommandMs: number | null = null;
  private readonly recent: CommandRecord[] = [];

  constructor(now: number, private readonly keep = 100) {
    this.createdAt = now;
  }

  record(entry: CommandRecord): void {
    this.commands++;
    this.lastCommandMs = entry.ms;
    const { type } = entry;
    this.recent.push(type.length > MAX_RECORDED_TYPE_LENGTH ? { ...entry, type: `${type.slice(0, MAX_RECORDED_TYPE_LENGTH - 1)}…` } : entry);
    if (this.recent.length > this.keep) this.recent.shift();
  }

  lastCommands(): readonly CommandRecord[] {
    return this.recent;
  }
}
