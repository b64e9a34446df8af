import { Scheduler, TimerHandle } from './scheduler';

/**
 * The room's one alarm, set for the next moment its rules have something to do (a clock running
 * out, a bot's turn, expiry). Setting it again replaces the previous one. `fire` receives the
 * moment that was due, not the moment the timer ran. The rules decide on the schedule, so a
 * replay agrees with them.
 */
export class Deadline {
  private timer?: TimerHandle;
  private at?: number;

  constructor(
    private readonly scheduler: Scheduler,
    /** The room's clock (epoch ms), which deadlines are set on. */
    private readonly now: () => number,
    private readonly fire: (at: number) => void,
  ) {}

  set(at: number | undefined): void {
    if (at === this.at && this.timer) return;
    this.clear();
    if (at === undefined) return;
    this.at = at;
    // Node timers overflow past ~24.8 days, but no room deadline is that far away. The timer rings
    // once the deadline's millisecond has passed. A command stamped with that very millisecond is
    // then already in the mailbox ahead of the deadline, which is the order a replay uses.
    this.timer = this.scheduler.setTimer(
      () => {
        this.timer = undefined;
        this.at = undefined;
        this.fire(at);
      },
      Math.max(0, at - this.now()) + 1,
    );
  }

  clear(): void {
    this.scheduler.clearTimer(this.timer);
    this.timer = undefined;
    this.at = undefined;
  }
}
