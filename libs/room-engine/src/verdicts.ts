import { Outcome } from './game-rules';

/**
 * What the rules made of one command against one state at one moment: the deadlines that were due
 * before the command (taken first), then either the command's outcome or the error the rules threw.
 */
export interface Verdict<S> {
  readonly overdue: readonly Outcome<S>[];
  readonly outcome?: Outcome<S>;
  readonly error?: unknown;
}

/** A command meets at most two states before its turn: the state the steps in flight leave, and the confirmed one. */
const KEPT_PER_COMMAND = 2;

interface Kept<S> {
  readonly state: S;
  readonly at: number;
  readonly verdict: Verdict<S>;
}

/**
 * Keeps the rules' verdicts on the commands a room still holds, so that each command's `decide`
 * runs once for each state it meets. The gate asks the rules about a command while a statement is
 * in flight (to refuse at once what is refused either way), and the batch handler asks again when
 * the command's turn comes. When the turn comes on the very state the gate asked about, at the
 * same moment, the rules would say the same thing again: they are pure, and a state is never
 * changed in place (every change makes a new object). So the verdict is kept and reused, and a
 * state that is a different object is decided afresh.
 *
 * The verdicts hang weakly on the command's letter, so they go when the letter does.
 */
export class Verdicts<S> {
  private readonly kept = new WeakMap<object, Kept<S>[]>();

  /** The verdict on `command` against `state` at `at`, if the rules already gave it. */
  get(command: object, state: S, at: number): Verdict<S> | undefined {
    return this.kept.get(command)?.find((k) => k.state === state && k.at === at)?.verdict;
  }

  /** Keeps a verdict on `command`. Only the latest two are kept, because older states will not come back. */
  set(command: object, state: S, at: number, verdict: Verdict<S>): void {
    const list = this.kept.get(command) ?? [];
    list.push({ state, at, verdict });
    if (list.length > KEPT_PER_COMMAND) list.shift();
    this.kept.set(command, list);
  }
}
