import { RoomException } from '@app/protocol';
import { Clock } from './clock';
import { CommandGate } from './command-gate';
import { CommitPipeline } from './commit-pipeline';
import { GameRules, Outcome } from './game-rules';
import { Letter } from './mailbox';
import { Command, CommandMessage, Message, ProposalMessage, SignalMessage } from './room-message';
import { StoreUnavailableError } from './room-store';
import { RuleDriver } from './rule-driver';
import { Scheduler } from './scheduler';

/** What the reply itself needs after a commit gave up: the budget's last slice. */
const REPLY_MARGIN_MS = 50;

export interface BatchHandlerDeps<S, C extends Command, W, R> {
  readonly code: string;
  readonly driver: RuleDriver<S, C, W, R, unknown>;
  readonly pipeline: CommitPipeline<S, W, R>;
  readonly gate: CommandGate<S, C, W>;
  /** Every command is answered within this many ms of its arrival, whatever PostgreSQL does. */
  readonly commandBudgetMs: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** Confirmed outcomes, told to the room's sockets. */
  readonly publish: (outcomes: readonly Outcome<S, W>[]) => void;
  /** A timed change failed: the signal `again` makes goes back to the mailbox a little later. */
  readonly retryLater: (again: () => SignalMessage) => void;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * What a room does with each batch its mailbox hands over: the rules decide it (through the
 * driver), the pipeline takes it, and once it is confirmed the gate answers and the publisher
 * tells; if it is refused, the gate answers that. Commands, proposals and signals alike.
 */
export class BatchHandler<S, C extends Command, W, R> {
  private readonly rules: GameRules<S, C, W, R, unknown>;

  constructor(private readonly deps: BatchHandlerDeps<S, C, W, R>) {
    this.rules = deps.driver.rules;
  }

  async process(batch: Letter<Message<S, C, W>>[]): Promise<void> {
    const first = batch[0].message;
    switch (first.kind) {
      case 'command':
        return this.handleCommandsSafely(batch as Letter<CommandMessage<C>>[]);
      case 'proposal':
        return this.handleProposal(first);
      case 'signal':
        return this.handleSignal(first);
    }
  }

  /** Whatever goes wrong, every command in the batch still gets exactly one reply. */
  private handleCommandsSafely(batch: Letter<CommandMessage<C>>[]): void {
    try {
      this.handleCommands(batch);
    } catch (err) {
      const refusal = this.deps.gate.unavailable(err, batch.map((l) => l.message.command.type).join(','));
      for (const letter of batch) this.deps.gate.replyTo(letter, refusal, this.deps.scheduler.now(), 0);
    }
  }

  /**
   * Commands that waited together: each is decided against the state its predecessors leave, all
   * their writes go in one statement, and only once it (and every statement before it) has
   * committed does anyone hear of them.
   */
  private handleCommands(letters: Letter<CommandMessage<C>>[]): void {
    const { gate, driver, pipeline } = this.deps;
    const startedAt = this.deps.scheduler.now();
    let round = driver.decideEach(pipeline.state, letters);
    let decided = round.decided;
    // A command whose budget is spent (it waited behind a stalled statement) gets 503 rather than
    // a statement it has no time for; one the rules refuse, or that writes nothing, is answered.
    const late = decided.filter((d) => d.outcome?.writes.length && this.remainingBudget(d.letter.message.arrival.hr) <= 0);
    if (late.length) {
      const unavailable = gate.unavailable(new StoreUnavailableError('no time left in the command budget'));
      for (const d of late) gate.replyTo(d.letter, unavailable, startedAt, 0);
      round = driver.decideEach(pipeline.state, letters.filter((l) => !late.some((d) => d.letter === l)));
      decided = round.decided;
    }
    if (decided.length === 0) return;
    const after = round.state;
    const writes = this.rules.mergeWrites(round.taken.flatMap((o) => o.writes));
    // The statement has the budget of the oldest command that writes.
    const writers = decided.filter((d) => d.outcome?.writes.length);
    const timeoutMs = writers.length ? this.remainingBudget(Math.min(...writers.map((d) => d.letter.message.arrival.hr))) : this.deps.commandBudgetMs;
    pipeline.take({
      writes,
      after,
      timeoutMs,
      confirm: (committed) => {
        let outcomes = round.taken;
        const follow = committed.length ? this.rules.afterCommit?.(after, committed, driver.context(this.deps.clock.now())) : undefined;
        if (follow) {
          outcomes = [...outcomes, follow];
          pipeline.confirmFollowUp(follow.state);
        }
        for (const d of decided) gate.replyTo(d.letter, d.outcome ? (d.outcome.reply ?? {}) : d.error, startedAt, writes.length);
        this.deps.publish(outcomes);
      },
      refuse: (err, behindFailure) => {
        const unavailable = gate.unavailable(err, decided[0].letter.message.command.type);
        // Behind a failed statement, even a refusal was decided against a state that never was.
        for (const d of decided) gate.replyTo(d.letter, d.outcome || behindFailure ? unavailable : d.error, startedAt, 0);
      },
    });
    // Commands that queued behind this statement and that it cannot make acceptable need not wait for it.
    if (writes.length) gate.refuseWaiting();
  }

  private handleProposal(m: ProposalMessage<S, W>): void {
    const { gate } = this.deps;
    let outcome: Outcome<S, W>;
    try {
      outcome = this.deps.driver.decideAt(this.deps.pipeline.state, this.deps.clock.now(), m.rule);
    } catch (err) {
      return m.done(err instanceof RoomException ? err : gate.unavailable(err));
    }
    this.deps.pipeline.take({
      writes: outcome.writes,
      after: outcome.state,
      timeoutMs: this.remainingBudget(m.arrival.hr),
      confirm: () => {
        m.done(undefined, outcome.reply);
        this.deps.publish([outcome]);
      },
      refuse: (err) => m.done(err instanceof RoomException ? err : gate.unavailable(err)),
    });
  }

  /** A deadline, a presence change or an outside close. A timed change that fails is retried. */
  private handleSignal(m: SignalMessage): void {
    const { pipeline, clock } = this.deps;
    const at = m.at ?? clock.now();
    // A deadline an earlier input already took (it was overdue when that input came) is spent.
    if (m.signal.kind === 'deadline' && m.lateDue === undefined && this.rules.nextDeadline(pipeline.state) !== at) return;
    const outcome = this.deps.driver.signal(pipeline.state, m.signal, at);
    pipeline.take({
      writes: outcome.writes,
      after: outcome.state,
      timeoutMs: this.deps.commandBudgetMs,
      late: m.lateDue !== undefined ? { due: m.lateDue, at } : undefined,
      confirm: () => this.deps.publish([outcome]),
      refuse: (err) => {
        this.deps.log('warn', 'room could not commit a timed change; retrying', { room: this.deps.code, signal: m.signal.kind, error: String(err) });
        // A late deadline is taken when the retry succeeds, and recorded with that moment.
        if (m.signal.kind === 'deadline') this.deps.retryLater(() => (m.lateDue !== undefined ? { ...m, at: clock.now() } : m));
      },
    });
  }

  private remainingBudget(arrivedHr: number): number {
    return this.deps.commandBudgetMs - REPLY_MARGIN_MS - (this.deps.scheduler.now() - arrivedHr);
  }
}
