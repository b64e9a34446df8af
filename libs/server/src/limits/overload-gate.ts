import { OverloadSignal } from '@app/protocol';

export type { OverloadSignal };

/**
 * What the server watches to know it is overloaded (PROTOCOL.md section 14): how late its event
 * loop runs, how long a room's statement waits for its commit, and how long a statement waits for
 * a pooled connection. Each is a level in milliseconds.
 */
export const OVERLOAD_SIGNALS: readonly OverloadSignal[] = OverloadSignal.options;

/** One number per signal, in milliseconds. */
export type SignalLevels = Readonly<Record<OverloadSignal, number>>;

/**
 * Each signal's mark. At or past its mark, new work is shed. A mark of 0 turns that signal off.
 * Admission resumes only once every signal is below ADMIT_FRACTION of its mark, so that a level
 * hovering at the mark does not switch shedding on and off with every reading.
 */
export type OverloadMarks = SignalLevels;

/** Where admission resumes, as a fraction of the mark that started the shedding. */
export const ADMIT_FRACTION = 0.5;

/**
 * The marks of the gate for new anonymous work (opening, joining, deck writes, lookups, spectator
 * seats): the event loop's lower mark alone. That work is only ever asked for, never owed, so it
 * is shed first, as soon as the loop runs late enough for rooms to feel it. Commit and pool waits
 * are the database's, and the main gate sheds on those.
 */
export function anonymousWorkMarks(eventLoopDelayMs: number): OverloadMarks {
  return { event_loop_delay: eventLoopDelayMs, commit_wait: 0, pool_wait: 0 };
}

export interface GateState {
  readonly shedding: boolean;
  /**
   * The signal that causes the shedding now (past its mark, or still above its lower mark), or null
   * while admitting.
   */
  readonly cause: OverloadSignal | null;
}

export const ADMITTING: GateState = { shedding: false, cause: null };

/** The lower mark of a signal: below it, the signal no longer holds the shedding. */
export function admitBelow(mark: number): number {
  return mark * ADMIT_FRACTION;
}

/**
 * Returns the gate's next state from the latest levels, with hysteresis. While admitting, the gate
 * sheds once any signal reaches its mark. While shedding, it admits again only once every signal
 * has fallen below its lower mark. This is a pure function: the caller owns the clock and the
 * readings.
 */
export function nextGateState(state: GateState, levels: SignalLevels, marks: OverloadMarks): GateState {
  const on = (signal: OverloadSignal) => marks[signal] > 0;
  const past = OVERLOAD_SIGNALS.find((s) => on(s) && levels[s] >= marks[s]);
  if (past) return { shedding: true, cause: past };
  if (!state.shedding) return ADMITTING;
  const holding = OVERLOAD_SIGNALS.find((s) => on(s) && levels[s] >= admitBelow(marks[s]));
  return holding ? { shedding: true, cause: holding } : ADMITTING;
}

/**
 * The last few readings of one signal, and the level it held through most of them. Each reading is
 * the worst seen in its slice of time, and the level is the one that at least half the readings
 * reached. So one long pause (a collection, a stall of the machine) is one reading and does not
 * make a level. A loop held back, or commits kept waiting, through most of the window does.
 */
export class SustainedLevel {
  private readonly readings: number[];
  private next = 0;

  constructor(readonly size: number) {
    // The window starts quiet, because a server that has just started has shed nothing.
    this.readings = new Array<number>(size).fill(0);
  }

  push(reading: number): void {
    this.readings[this.next] = reading;
    this.next = (this.next + 1) % this.size;
  }

  /** The level at least half the readings reached (the median, taking the higher of two middles). */
  level(): number {
    const sorted = [...this.readings].sort((a, b) => b - a);
    return sorted[Math.ceil(this.size / 2) - 1];
  }
}

/**
 * The fastest of the waits seen over the last `size` slices. A commit's wait holds the database's
 * distance and its own time to commit, and no shedding makes either shorter: with PostgreSQL 60 ms
 * away, every commit waits 60 ms however idle the instance is. What overload adds is the time above
 * the fastest commit. The fastest of a minute's commits is a commit that met no queue, even under
 * load, because among hundreds a second some find the lane free.
 */
export class FastestWait {
  private readonly fastest: number[];
  private next = 0;
  private slice = Infinity;

  constructor(readonly size: number) {
    this.fastest = new Array<number>(size).fill(Infinity);
  }

  /** Counts one wait of the current slice. */
  saw(ms: number): void {
    if (ms < this.slice) this.slice = ms;
  }

  /** Ends the current slice. */
  endSlice(): void {
    this.fastest[this.next] = this.slice;
    this.next = (this.next + 1) % this.size;
    this.slice = Infinity;
  }

  /** The fastest wait of the window, the current slice included; 0 when none was seen. */
  floor(): number {
    let floor = this.slice;
    for (const ms of this.fastest) if (ms < floor) floor = ms;
    return floor === Infinity ? 0 : floor;
  }
}
