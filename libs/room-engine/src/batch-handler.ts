import { okReply, RoomException } from '@app/protocol';
import { ClockHold, TRY_BUDGET_MS } from './clock-hold';
import { Clock } from './clock';
import { CommandGate } from './command-gate';
import { CommitPipeline, Decision } from './commit-pipeline';
import { Actor, GameRules, Outcome } from './game-rules';
import { Letter } from './mailbox';
import { Command, CommandMessage, Message, ProposalMessage, SignalMessage } from './room-message';
import { seatKey } from './reply-memory';
import { JournalInput, SeatReply, StoreUnavailableError } from './room-store';
import { RuleDriver } from './rule-driver';
import { Scheduler } from './scheduler';

/** The last slice of a command's budget, kept for sending the reply itself after a commit gave up. */
const REPLY_MARGIN_MS = 50;

export interface BatchHandlerDeps<S, C extends Command> {
  readonly code: string;
  readonly driver: RuleDriver<S, C>;
  readonly pipeline: CommitPipeline<S>;
  readonly gate: CommandGate<S, C>;
  /** Holds the room's clocks while its writes fail. It gives each decision its moment, and each write the hold it carries. */
  readonly hold: ClockHold<S>;
  /** Every command is answered within this many ms of its arrival, whatever PostgreSQL does. */
  readonly commandBudgetMs: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** Tells the room's sockets about confirmed outcomes. */
  readonly publish: (outcomes: readonly Outcome<S>[]) => void;
  /** Called when a timed change failed. The signal that `again` makes goes back to the mailbox a little later. */
  readonly retryLater: (again: () => SignalMessage) => void;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * What a room does with each batch its mailbox hands over, whether commands, proposals or signals.
 * The rules decide the batch (through the driver) and the pipeline takes it. Once it is confirmed,
 * the gate answers and the publisher tells the sockets. If it is refused, the gate answers with the
 * refusal.
 */
export class BatchHandler<S, C extends Command> {
  private readonly rules: GameRules<S, C>;

  constructor(private readonly deps: BatchHandlerDeps<S, C>) {
    this.rules = deps.driver.rules;
  }

  async process(batch: Letter<Message<C>>[]): Promise<void> {
    const first = batch[0].message;
    switch (first.kind) {
      case 'command':
        return this.handleCommandsSafely(batch as Letter<CommandMessage<C>>[]);
      case 'proposal':
        return this.handleProposal(first);
      case 'signal':
        return this.handleSignal(first);
      case 'resume':
        return this.tryResume();
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
   * Handles commands that waited together. Each is decided against the state its predecessors
   * leave, and the accepted ones are journaled in one statement. Nobody hears of them until that
   * statement, and every statement before it, has committed.
   */
  private handleCommands(letters: Letter<CommandMessage<C>>[]): void {
    const { gate, driver, pipeline, hold } = this.deps;
    const startedAt = this.deps.scheduler.now();
    const momentOf = (m: CommandMessage<C>) => hold.moment(m.arrival.at);
    // A command whose budget is spent (because it waited behind a stalled statement) gets 503
    // rather than a statement it has no time for, and the commands behind it are decided without
    // it. A command the rules refuse is answered with the refusal. Each command is decided once,
    // in this one pass.
    const spent = (m: CommandMessage<C>) => this.remainingBudget(m.arrival.hr) <= 0;
    const round = driver.decideEach(pipeline.state, letters, momentOf, spent);
    const late = round.decided.filter((d) => d.late);
    if (late.length) {
      const unavailable = gate.unavailable(new StoreUnavailableError('no time left in the command budget'));
      for (const d of late) gate.replyTo(d.letter, unavailable, startedAt, 0);
    }
    const decided = round.decided.filter((d) => !d.late);
    if (decided.length === 0) return;
    const accepted = decided.filter((d) => d.outcome);
    const inputs: JournalInput[] = accepted.map(({ letter: { message: m } }) => ({
      kind: 'command',
      at: momentOf(m),
      actor: actorOf(m.viewer),
      commandId: m.command.id,
      body: m.command,
    }));
    const acks: SeatReply[] = accepted.map(({ letter: { message: m }, outcome }) => ({
      seat: seatKey(m.viewer),
      reply: okReply(m.command.id, outcome!.reply ?? {}),
    }));
    // The statement has the budget of the oldest command it carries.
    const timeoutMs = accepted.length
      ? this.remainingBudget(Math.min(...accepted.map((d) => d.letter.message.arrival.hr)))
      : this.deps.commandBudgetMs;
    // How many statements the step sent (0 or 1), as the pipeline counts them, for each reply's record.
    let statements = 0;
    statements = this.take({
      ...this.record(round.taken, inputs, accepted.length > 0),
      acks,
      after: round.state,
      timeoutMs,
      confirm: () => {
        for (const d of decided) gate.replyTo(d.letter, d.outcome ? (d.outcome.reply ?? {}) : d.error, startedAt, statements);
        this.deps.publish(round.taken);
      },
      refuse: (err, behindFailure) => {
        const unavailable = gate.unavailable(err, decided[0].letter.message.command.type);
        // Behind a failed statement, even a refusal was decided against a state that never existed, so all get 503.
        for (const d of decided) gate.replyTo(d.letter, d.outcome || behindFailure ? unavailable : d.error, startedAt, 0);
      },
    });
    // Commands that queued behind this statement, and that it cannot make acceptable, need not wait for it.
    if (statements) gate.refuseWaiting();
  }

  private handleProposal(m: ProposalMessage): void {
    const { gate, clock } = this.deps;
    const at = this.deps.hold.moment(clock.now());
    const rule = this.rules.proposals?.[m.name];
    if (!rule) return m.done(gate.unavailable(new Error(`the rules have no proposal named ${m.name}`)));
    let outcome: Outcome<S>;
    try {
      outcome = this.deps.driver.decideAt(this.deps.pipeline.state, at, (s, ctx) => rule(s, m.args, ctx));
    } catch (err) {
      return m.done(err instanceof RoomException ? err : gate.unavailable(err));
    }
    this.take({
      ...this.record([outcome], [{ kind: 'proposal', at, body: { name: m.name, args: m.args } }], true),
      acks: [],
      after: outcome.state,
      timeoutMs: this.remainingBudget(m.arrival.hr),
      confirm: () => {
        m.done(undefined, outcome.reply);
        this.deps.publish([outcome]);
      },
      refuse: (err) => m.done(err instanceof RoomException ? err : gate.unavailable(err)),
    });
  }

  /**
   * Handles a deadline, a presence change, the room coming back, or an outside close. A deadline
   * taken on time is not journaled, because a replay's clock takes it again. A deadline taken late
   * is journaled. So is a presence change or a resumption that changed the room: it rides with the
   * next statement, unless the rules say it decided something that must be durable first. An
   * outside close is already recorded. A timed change that fails is retried, unless the room's
   * clocks are held, because no deadline is taken then.
   */
  private handleSignal(m: SignalMessage): void {
    const { pipeline, clock, hold } = this.deps;
    const { signal } = m;
    // While the clocks are held, the deadline waits. It is taken once they have moved on, when its timer is armed again.
    if (signal.kind === 'deadline' && hold.held) return;
    const at = signal.kind === 'deadline' ? (m.at ?? clock.now()) : hold.moment(m.at ?? clock.now());
    // An earlier input may already have taken this deadline (it was overdue when that input came). If so, it is spent.
    if (signal.kind === 'deadline' && m.lateDue === undefined && this.rules.nextDeadline(pipeline.state) !== at) return;
    const before = pipeline.state;
    const outcome =
      signal.kind === 'deadline' && m.lateDue === undefined
        ? this.deps.driver.dueTogether(before, at)
        : this.deps.driver.signal(before, signal, at);
    const inputs: JournalInput[] =
      m.lateDue !== undefined
        ? [{ kind: 'late_deadline', at, body: { due: m.lateDue } }]
        : (signal.kind === 'presence' || signal.kind === 'resumed') && outcome.state !== before
          ? [{ kind: 'signal', at, body: signal }]
          : [];
    this.take({
      ...this.record([outcome], inputs, m.lateDue !== undefined || outcome.durable === true, signal.kind === 'closed'),
      acks: [],
      after: outcome.state,
      timeoutMs: this.deps.commandBudgetMs,
      confirm: () => this.deps.publish([outcome]),
      refuse: (err) => {
        // While the clocks are held, the room's own attempts to resume them take the place of a retry.
        if (hold.held) return;
        this.deps.log('warn', 'room could not commit a timed change; retrying', {
          room: this.deps.code,
          signal: signal.kind,
          error: String(err),
        });
        // A late deadline is taken when the retry succeeds, and it is recorded with that moment.
        if (signal.kind === 'deadline') this.deps.retryLater(() => (m.lateDue !== undefined ? { ...m, at: clock.now() } : m));
      },
    });
  }

  /**
   * Runs when the room's clocks are held and nothing else tried a write lately. The room takes a
   * step of its own that records only the hold. If it commits, the clocks move on and the sockets
   * are told.
   */
  private tryResume(): void {
    const { pipeline, hold, clock } = this.deps;
    if (!hold.held) return;
    // A statement is still out (in doubt), and an attempt queued behind it could not answer sooner than it.
    if (pipeline.inFlight > 0) return hold.tryAgainLater();
    const decision: Decision<S> = {
      ...this.record([], [], true),
      acks: [],
      after: pipeline.state,
      timeoutMs: Math.min(this.deps.commandBudgetMs, TRY_BUDGET_MS),
      // The hold does the rest: if the step commits, it tells the sockets; if refused, it tries again later.
      confirm: () => undefined,
      refuse: () => undefined,
    };
    hold.take(decision, clock.now(), (d) => pipeline.take(d), true);
  }

  /** Hands a decision to the pipeline through the hold, which adds the hold while the clocks are held and watches the statement. */
  private take(decision: Decision<S>): number {
    const { pipeline, hold, clock } = this.deps;
    return hold.take(decision, clock.now(), (d) => pipeline.take(d));
  }

  /**
   * What the outcomes of one step leave in the journal besides its inputs: a boundary's snapshot,
   * a finished game, the room's end.
   */
  private record(outcomes: readonly Outcome<S>[], inputs: readonly JournalInput[], durable: boolean, closedElsewhere = false) {
    const close = outcomes.flatMap((o) => o.effects).find((e) => e.kind === 'close');
    const finished = outcomes.map((o) => o.finished).filter((f) => f !== undefined);
    if (finished.length > 1)
      this.deps.log('error', 'one step finished more than one game: only the last is recorded', { room: this.deps.code });
    return {
      inputs,
      durable,
      boundary: outcomes.some((o) => o.boundary),
      finished: finished.at(-1),
      // A close from outside the actor is already recorded.
      closed: close?.kind === 'close' && !closedElsewhere ? close.reason : undefined,
      at: this.deps.clock.now(),
    };
  }

  private remainingBudget(arrivedHr: number): number {
    return this.deps.commandBudgetMs - REPLY_MARGIN_MS - (this.deps.scheduler.now() - arrivedHr);
  }
}

/** The journal's actor: the role and seat, without the socket. */
function actorOf(viewer: Actor): Actor {
  return viewer.seat === undefined ? { role: viewer.role } : { role: viewer.role, seat: viewer.seat };
}
