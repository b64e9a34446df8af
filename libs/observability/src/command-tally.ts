import { UNKNOWN_LABEL } from './label-vocabulary';

/**
 * Exact per-command counts and means since start, and a recent rate, as the admin overview shows
 * them. A command the server does not know is tallied as `unknown`, so the table has at most one
 * row per known type, plus one.
 */
export class CommandTally {
  private readonly totals = new Map<string, { count: number; sumMs: number }>();
  /** Commands handled per whole second, for the last `windowSeconds` seconds. */
  private readonly perSecond = new Map<number, number>();

  constructor(
    private readonly isKnown: (command: string) => boolean,
    private readonly windowSeconds = 5,
  ) {}

  record(command: string, ms: number, nowMs: number): void {
    const row = this.isKnown(command) ? command : UNKNOWN_LABEL;
    const t = this.totals.get(row) ?? { count: 0, sumMs: 0 };
    t.count++;
    t.sumMs += ms;
    this.totals.set(row, t);
    const second = Math.floor(nowMs / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    for (const s of this.perSecond.keys()) if (s < second - this.windowSeconds) this.perSecond.delete(s);
  }

  commands(): { command: string; count: number; meanMs: number }[] {
    return [...this.totals.entries()]
      .map(([command, t]) => ({ command, count: t.count, meanMs: t.sumMs / t.count }))
      .sort((a, b) => a.command.localeCompare(b.command));
  }

  /** Mean rate over the last whole seconds of the window. */
  perSecondRate(nowMs: number): number {
    const current = Math.floor(nowMs / 1000);
    let sum = 0;
    for (const [s, n] of this.perSecond) if (s < current && s >= current - this.windowSeconds) sum += n;
    return sum / this.windowSeconds;
  }
}
