/** One handled command, as the admin API shows it. */
export interface CommandRecord {
  readonly type: string;
  readonly at: number;
  readonly mailboxWaitMs: number;
  readonly ms: number;
  readonly status: number;
  readonly roundTrips: number;
}

/** The longest command type kept, so that a client's 15,000-character type is not stored 100 times. */
export const MAX_RECORDED_TYPE_LENGTH = 64;

/** How many distinct types are kept once for every room. Past this many, a type is kept as it came. */
const MAX_SHARED_TYPES = 256;

/**
 * One shared string for each type. A type comes fresh out of JSON.parse each time, and a room
 * records it 100 times.
 */
const sharedTypes = new Map<string, string>();

function recordedType(type: string): string {
  // Use join rather than a template: V8 keeps a slice as a view of the whole 15,000 characters, and join copies it.
  const kept = type.length > MAX_RECORDED_TYPE_LENGTH ? [type.slice(0, MAX_RECORDED_TYPE_LENGTH - 1), '…'].join('') : type;
  const shared = sharedTypes.get(kept);
  if (shared !== undefined) return shared;
  if (sharedTypes.size < MAX_SHARED_TYPES) sharedTypes.set(kept, kept);
  return kept;
}

/**
 * The last commands, written round a ring, one row each, so that no command costs an object or a
 * boxed number. It uses two buffers rather than one per field, because each typed array costs some
 * 200 bytes besides its numbers.
 */
class CommandRing {
  private readonly types: string[];
  /** Three numbers per row: at, mailboxWaitMs, ms. */
  private readonly times: Float64Array;
  /** Two small counts (under 65,536) per row: status, roundTrips. */
  private readonly counts: Uint16Array;
  /** How many records were ever written. The next goes to row `written % size`. */
  private written = 0;

  constructor(private readonly size: number) {
    this.types = new Array<string>(size).fill('');
    this.times = new Float64Array(3 * size);
    this.counts = new Uint16Array(2 * size);
  }

  push(entry: CommandRecord, type: string): void {
    const row = this.written++ % this.size;
    this.types[row] = type;
    const t = 3 * row;
    const c = 2 * row;
    this.times[t] = entry.at;
    this.times[t + 1] = entry.mailboxWaitMs;
    this.times[t + 2] = entry.ms;
    this.counts[c] = entry.status;
    this.counts[c + 1] = entry.roundTrips;
  }

  /** The kept records, oldest first. */
  records(): CommandRecord[] {
    const { types, times, counts } = this;
    const out: CommandRecord[] = [];
    for (let n = Math.max(0, this.written - this.size); n < this.written; n++) {
      const row = n % this.size;
      const t = 3 * row;
      const c = 2 * row;
      out.push({
        type: types[row],
        at: times[t],
        mailboxWaitMs: times[t + 1],
        ms: times[t + 2],
        status: counts[c],
        roundTrips: counts[c + 1],
      });
    }
    return out;
  }
}

/** A room's counters for operators: commands handled, their latency, and the last 100 commands. */
export class RoomStats {
  readonly createdAt: number;
  commands = 0;
  lastCommandMs: number | null = null;
  /** Made at the first command, so a room that takes none holds no columns. */
  private recent: CommandRing | undefined;

  constructor(
    now: number,
    private readonly keep = 100,
  ) {
    this.createdAt = now;
  }

  record(entry: CommandRecord): void {
    this.commands++;
    this.lastCommandMs = entry.ms;
    if (this.keep < 1) return;
    (this.recent ??= new CommandRing(this.keep)).push(entry, recordedType(entry.type));
  }

  /** Builds the list afresh on each call, which is fine because the admin API asks only now and then. */
  lastCommands(): readonly CommandRecord[] {
    return this.recent?.records() ?? [];
  }
}
