import { okReply, ReplyFrame, RoomException } from '@app/protocol';
import { Actor, chain, GameRules, Outcome, RuleContext, Signal } from './game-rules';
import { Letter } from './mailbox';
import { Command, CommandMessage } from './room-message';
import { JournalInput } from './room-store';
import { seededRandom } from './seeded-random';
import { unguessableIds } from './unguessable-ids';
import { Verdict, Verdicts } from './verdicts';

/** The most deadlines a catch-up fires before one input. This guards against a rule that loops. */
const MAX_CATCH_UP = 1000;

/**
 * What one command of a batch came to: its outcome, or the rules' refusal. It has neither when the
 * rules took the command but its budget was spent; then `late` is set, the command is not taken,
 * and it is answered 503.
 */
export interface Decided<S, C> {
  readonly letter: Letter<CommandMessage<C>>;
  readonly outcome?: Outcome<S>;
  readonly error?: unknown;
  readonly late?: true;
}

/** What a replay tells its room besides the state it rebuilds. */
export interface ReplayHooks<E = JournalInput> {
  /** The rules refused a recorded input, so the record and the rules disagree. The input is skipped. */
  refused(entry: E, error: unknown): void;
  /** A recorded input was an acknowledged command. `reply` is its original reply, rebuilt. */
  acknowledged(actor: Actor, reply: ReplyFrame): void;
}

/**
 * Drives the rules. Every decision a room takes goes through here, live and in replay, so that
 * both take deadlines the same way, through one catch-up (`overdue`). Before an input stamped
 * `at`, the catch-up takes every deadline due before `at`, at the moment it was due. Live, that
 * keeps a command from overtaking a timer that a busy event loop runs late. In replay, it fires
 * the deadlines that fell between two recorded inputs. The driver is pure: no clock, no timers,
 * no I/O.
 */
export class RuleDriver<S, C extends Command> {
  /** What the rules said of the commands the room still holds. Each command is decided once per state it meets. */
  private readonly verdicts = new Verdicts<S>();

  constructor(
    readonly rules: GameRules<S, C>,
    private readonly seed: number,
    /** The room's secret for unguessable ids (`ctx.id`). */
    private readonly idSecret?: string,
  ) {}

  /** The rules' context at `now`. The same moment draws the same numbers, live and in replay. */
  context(now: number): RuleContext {
    return { now, random: seededRandom(this.seed, now), id: unguessableIds(this.idSecret, this.seed, now) };
  }

  /**
   * Takes the deadlines due before `at`, in order, each at the moment it was due. It stops at the
   * first deadline whose outcome leaves the state unchanged.
   */
  overdue(state: S, at: number): Outcome<S>[] {
    return this.deadlinesWhile(state, (due) => due < at);
  }

  /** Takes the deadlines in order while `takes` says yes to the next one's moment, each at that moment. */
  private deadlinesWhile(state: S, takes: (due: number) => boolean): Outcome<S>[] {
    const taken: Outcome<S>[] = [];
    for (let i = 0; i < MAX_CATCH_UP; i++) {
      const due = this.rules.nextDeadline(state);
      if (due === undefined || !takes(due)) break;
      const outcome = this.rules.onSignal(state, { kind: 'deadline' }, this.context(due));
      if (outcome.state === state) break;
      taken.push(outcome);
      state = outcome.state;
    }
    return taken;
  }

  /** The state once the deadlines due before `at` are taken. */
  caughtUp(state: S, at: number): S {
    return this.overdue(state, at).at(-1)?.state ?? state;
  }

  /** Runs `apply` at `at` after the deadlines due before it, and joins them into one outcome, the deadlines' first. */
  decideAt(state: S, at: number, apply: (state: S, ctx: RuleContext) => Outcome<S>): Outcome<S> {
    const overdue = this.overdue(state, at);
    const decided = apply(overdue.at(-1)?.state ?? state, this.context(at));
    return overdue.reduceRight((after, before) => chain(before, after), decided);
  }

  /**
   * Takes the deadline due at `at`, on time, and every other deadline due at that same moment, as
   * one outcome. A replay takes the deadlines due before an input's moment, and none of those due
   * at it. So deadlines due together must be recorded together: were they two steps, a write that
   * failed between them would stop the clocks (a `clock_held` input) at a moment some of them had
   * rung at and some had not, which no replay can tell apart.
   */
  dueTogether(state: S, at: number): Outcome<S> {
    const first = this.rules.onSignal(state, { kind: 'deadline' }, this.context(at));
    const rest = this.deadlinesWhile(first.state, (due) => due === at);
    return [first, ...rest].reduceRight((after, before) => chain(before, after));
  }

  /**
   * Decides a signal at `at`. Nothing is caught up before a deadline or a room coming back: a
   * deadline is itself what is due, and a room coming back takes what passed meanwhile as late
   * (not at the moments it was due).
   */
  signal(state: S, signal: Signal, at: number): Outcome<S> {
    if (signal.kind === 'deadline' || signal.kind === 'resumed') return this.rules.onSignal(state, signal, this.context(at));
    return this.decideAt(state, at, (s, ctx) => this.rules.onSignal(s, signal, ctx));
  }

  /**
   * Decides commands that waited together. Each is decided against the state its predecessors
   * leave, after the deadlines due before it, at the moment `momentOf` gives it (its arrival,
   * unless the room's clocks are held). `taken` is everything that changed the room, in order. A
   * command the rules take but whose budget is `spent` is not taken. The state stays as it was
   * before that command (the deadlines due before it stand, as they do before a refused command),
   * and the commands behind it are decided without it.
   */
  decideEach(
    state: S,
    letters: readonly Letter<CommandMessage<C>>[],
    momentOf: (m: CommandMessage<C>) => number = (m) => m.arrival.at,
    spent: (m: CommandMessage<C>) => boolean = () => false,
  ): { decided: Decided<S, C>[]; taken: Outcome<S>[]; state: S } {
    const taken: Outcome<S>[] = [];
    const decided = letters.map((letter): Decided<S, C> => {
      const m = letter.message;
      const verdict = this.verdict(state, m, momentOf(m));
      taken.push(...verdict.overdue);
      state = verdict.overdue.at(-1)?.state ?? state;
      const { outcome, error } = verdict;
      if (!outcome) {
        if (!(error instanceof RoomException)) throw error;
        return { letter, error };
      }
      if (spent(m)) return { letter, late: true };
      state = outcome.state;
      taken.push(outcome);
      return { letter, outcome };
    });
    return { decided, taken, state };
  }

  /**
   * The rules' refusal of the command in `m` against `state` at `at`, decided as it would be in its
   * turn (after the deadlines due before it). It is undefined when the rules take the command, or
   * fail in some other way.
   */
  refusal(state: S, m: CommandMessage<C>, at: number): RoomException | undefined {
    const { error } = this.verdict(state, m, at);
    return error instanceof RoomException ? error : undefined;
  }

  /**
   * What the rules make of the command in `m` against `state` at `at`. The rules run once for each
   * command, state and moment. When the driver is asked again (because the command's turn came on
   * the state the gate already asked about), it reuses the verdict they gave (verdicts.ts).
   */
  private verdict(state: S, m: CommandMessage<C>, at: number): Verdict<S> {
    const known = this.verdicts.get(m, state, at);
    if (known) return known;
    const overdue = this.overdue(state, at);
    const caughtUp = overdue.at(-1)?.state ?? state;
    let verdict: Verdict<S>;
    try {
      verdict = { overdue, outcome: this.rules.decide(caughtUp, m.viewer, m.command, this.context(at)) };
    } catch (error) {
      verdict = { overdue, error };
    }
    this.verdicts.set(m, state, at, verdict);
    return verdict;
  }

  /**
   * Rebuilds the room that stopped from its journal. It starts from the starting state and applies
   * each input again at its own moment, after the deadlines due before it. A deadline the journal
   * says was taken late is taken at the moment it was taken, and dropped if it no longer matches.
   * A hold of the clocks moves them on where the journal says the hold ended (clock-hold.ts).
   */
  replay(state: S, journal: readonly JournalInput[], hooks: ReplayHooks): S {
    for (const input of journal) state = this.replayOne(state, input, hooks);
    return state;
  }

  private replayOne(state: S, input: JournalInput, hooks: ReplayHooks): S {
    if (input.kind === 'late_deadline') return this.takeLate(state, input.body.due, input.at);
    if (input.kind === 'clock_held') return this.shiftClocks(this.caughtUp(state, input.at), input.body.ms);
    if (input.kind === 'signal' && input.body.kind !== 'presence') return this.signal(state, input.body, input.at).state;
    // An input recorded at the very moment of a deadline was taken before the deadline fired.
    state = this.caughtUp(state, input.at);
    const ctx = this.context(input.at);
    try {
      switch (input.kind) {
        case 'command': {
          const outcome = this.rules.decide(state, input.actor, input.body as C, ctx);
          hooks.acknowledged(input.actor, okReply(input.commandId, outcome.reply ?? {}));
          return outcome.state;
        }
        case 'proposal': {
          const rule = this.rules.proposals?.[input.body.name];
          if (!rule) throw new Error(`the rules have no proposal named ${input.body.name}`);
          return rule(state, input.body.args, ctx).state;
        }
        case 'signal':
          return this.rules.onSignal(state, input.body, ctx).state;
      }
    } catch (err) {
      hooks.refused(input, err);
      return state;
    }
  }

  /**
   * Returns the state with every clock moved on by `ms`, as the game moves them. The state stays
   * unchanged when the game does not say how.
   */
  shiftClocks(state: S, ms: number): S {
    return ms > 0 && this.rules.shiftClocks ? this.rules.shiftClocks(state, ms) : state;
  }

  /**
   * Takes a deadline that was due at `due` late, at `at`. The deadlines before it are taken first,
   * each at its own moment.
   */
  takeLate(state: S, due: number, at: number): S {
    state = this.caughtUp(state, due);
    if (this.rules.nextDeadline(state) !== due) return state;
    return this.rules.onSignal(state, { kind: 'deadline' }, this.context(at)).state;
  }
}
