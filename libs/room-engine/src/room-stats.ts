/** One handled command, as the admin API shows it. */
export interface CommandRecord {
  readonly type: string;
  readonly at: number;
  readonly mailboxWaitMs: number;
  readonly ms: number;
  readonly status: number;
  readonly roundTrips: number;
}

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
    this.recent.push(entry);
    if (this.recent.length > this.keep) this.recent.shift();
  }

  lastCommands(): readonly CommandRecord[] {
    return this.recent;
  }
}
