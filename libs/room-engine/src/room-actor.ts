import {
  clip,
  CloseCode,
  CommandFrame,
  errorReply,
  okReply,
  PING,
  ReplyFrame,
  RoomErrorCode,
  RoomException,
  statusClass,
} from '@app/protocol';
import { outboundEvent, Viewer, Viewers } from './audience';
import { Clock } from './clock';
import { Deadline } from './deadline';
import { Actor, chain, Committed, GameRules, Outcome, Restored, RuleContext, Signal } from './game-rules';
import { Letter, Mailbox } from './mailbox';
import { ReplyMemory } from './reply-memory';
import { RoomStats } from './room-stats';
import { RoomOutOfOrderError, RoomStore, StoreUnavailableError } from './room-store';
import { seededRandom } from './seeded-random';

/** When a command arrived: on the room's clock (for the game) and monotonic (for latency and budgets). */
export interface Arrival {
  /** Clock milliseconds: what scoring and deadlines compare against. */
  readonly at: number;
  /** performance.now(): what latency and the answer budget are measured from. */
  readonly hr: number;
}

/** What a room reports about each command it handles. */
export interface CommandObserver {
  command(type: string, status: number, seconds: number, mailboxWaitSeconds: number): void;
}

export interface RoomActorDeps<W, R> {
  readonly store: RoomStore<W, R>;
  readonly clock: Clock;
  readonly observer: CommandObserver;
  readonly mailboxDepth: number;
  /** Decisions with statements in flight at most (1: none pipelined); more waiting commands gather in the mailbox. */
  readonly pipelineDepth?: number;
  readonly passivateAfterMs: number;
  /** Every command is answered within this many ms of its arrival, whatever PostgreSQL does. */
  readonly commandBudgetMs: number;
  /** Seeds the rules' random source. */
  readonly seed: number;
  /** The room's statements PostgreSQL has applied (rooms.commit_seq): where its next one goes. */
  readonly committedStatements: number;
  /** The fencing number of this process's lease on the room, carried by every statement. */
  readonly fence?: number;
  /** Called when the room goes out of memory (passivated, closed or drained). */
  readonly onDispose: (room: RoomActor<any, any, any, any, any>) => void;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/** live: takes commands. draining: finishes what it holds, takes nothing new. disposed: gone. */
export type Lifecycle = 'live' | 'draining' | 'disposed';

type Command = { readonly id: string; readonly type: string };

interface CommandMessage<C> {
  readonly kind: 'command';
  readonly viewer: Actor;
  readonly command: C;
  readonly arrival: Arrival;
  readonly reply: (r: ReplyFrame) => void;
}
interface ProposalMessage<S, W> {
  readonly kind: 'proposal';
  readonly rule: (state: S, ctx: RuleContext) => Outcome<S, W>;
  readonly arrival: Arrival;
  readonly done: (err: unknown, reply?: unknown) => void;
}
interface SignalMessage {
  readonly kind: 'signal';
  readonly signal: Signal;
  /** For a deadline, the moment it is taken at: when it was due, or now for a late one. */
  readonly at?: number;
  /** A deadline taken late: when it was due. */
  readonly lateDue?: number;
}
interface Decided<S, C, W> {
  readonly letter: Letter<CommandMessage<C>>;
  readonly outcome?: Outcome<S, W>;
  readonly error?: unknown;
}
type Message<S, C, W> = CommandMessage<C> | ProposalMessage<S, W> | SignalMessage;

/**
 * A decision whose statements are on their way: it is confirmed (replies, events) when they
 * commit and every step before it was confirmed, in the order the steps were taken.
 */
interface Step<S, W, R> {
  readonly statements: number;
  /** The room's state once this step commits. */
  readonly after: S;
  /** Nothing may be decided behind it until it commits (the rules need its result). */
  readonly barrier: boolean;
  readonly sentAt: number;
  result?: { readonly ok: true; readonly committed: Committed<W, R>[] } | { readonly ok: false; readonly error: unknown };
  readonly confirm: (committed: Committed<W, R>[]) => void;
  readonly refuse: (error: unknown, behindFailure: boolean) => void;
}

/** A timed change that could not be committed is tried again this much later. */
const RETRY_AFTER_FAILURE_MS = 1000;
/** What the reply itself needs after a commit gave up: the budget's last slice. */
const REPLY_MARGIN_MS = 50;
/** A replay fires at most this many deadlines between two recorded inputs (a guard against a rule that loops). */
const MAX_CATCH_UP = 1000;
/**
 * While a statement of the room is in flight, the next batch gathers for at most this fraction of
 * a recent commit's time before it follows: votes and answers that arrive milliseconds apart share
 * a statement, and none waits more than a tenth of a round trip for it. A command that arrives
 * while nothing is in flight never waits.
 */
const GATHER_FRACTION = 0.1;
/**
 * With two or more steps already in flight the room is busy (a big room's answers): commands
 * arrive many per round trip, so gathering a quarter of one saves more statements for the wait.
 */
const BUSY_GATHER_FRACTION = 0.25;
/** ...and never longer than this, whatever the database's distance. */
const MAX_GATHER_MS = 20;
/** Steps in flight at most, unless the deps say otherwise: more waiting commands then gather in the mailbox. */
const PIPELINE_DEPTH = 8;

const OPERATOR: Actor = { role: 'host' };

/**
 * The actor of one live room, for any game. It owns the room's state; commands, deadlines and
 * signals enter its mailbox and are handled one batch at a time. The rules decide; the actor
 * commits what they decided in one statement per batch and only then tells anyone. An idle room
 * sends nothing to PostgreSQL.
 *
 * @example
 * const room = RoomActor.restore({ code, roomId, openedAt }, rules, restored, deps);
 * room.attach(viewer);                      // its first frame is the room as it may see it
 * room.submit(viewer, frame, arrival);      // the reply goes to the viewer, after the commit
 */
export class RoomActor<S, C extends Command, W, R, E> {
  readonly viewers = new Viewers();
  readonly stats: RoomStats;
  private lifecycle: Lifecycle = 'live';
  private readonly mailbox: Mailbox<Message<S, C, W>>;
  private readonly deadline: Deadline;
  private readonly replies: ReplyMemory;
  private readonly known: ReadonlySet<string>;
  /** Letters already replied to: a reply is sent once, whatever happens after. */
  private readonly answered = new WeakSet<object>();
  /**
   * What PostgreSQL has confirmed: what viewers are shown. `state` is what every decision starts
   * from: the room once every step in flight commits.
   */
  private confirmed: S;
  /** Steps in flight, oldest first. */
  private readonly steps: Step<S, W, R>[] = [];
  private settledWaiters: (() => void)[] = [];
  /** Statements confirmed, and statements sent (the next statement's position). */
  private committedStatements: number;
  private sentStatements: number;
  /** A recent commit's duration (ms, moving average): what the gathering window is a fraction of. */
  private commitMs = 0;
  private idleTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private drained?: Promise<void>;

  private constructor(
    readonly code: string,
    readonly roomId: string,
    private readonly rules: GameRules<S, C, W, R, E>,
    private state: S,
    private readonly deps: RoomActorDeps<W, R>,
    replies: ReplyMemory,
    /** When the room was opened (epoch ms), for operators. */
    readonly openedAt: number,
  ) {
    this.replies = replies;
    this.confirmed = state;
    this.committedStatements = this.sentStatements = deps.committedStatements;
    this.known = new Set([...rules.commandTypes, PING]);
    this.stats = new RoomStats(deps.clock.now());
    this.deadline = new Deadline(
      () => deps.clock.now(),
      (at) => this.mailbox.post({ kind: 'signal', signal: { kind: 'deadline' }, at }),
    );
    this.mailbox = new Mailbox<Message<S, C, W>>({
      maxDepth: deps.mailboxDepth,
      isBounded: (m) => m.kind !== 'signal',
      batchKey: (m) => (m.kind === 'command' ? rules.batchKey(m.command) : null),
      process: (batch) => this.process(batch),
      beforeBatch: () => this.readyForNextBatch(),
      onError: (err) => deps.log('error', 'room handler failed', { room: this.code, error: String(err) }),
      // Mailbox wait is latency, measured on the monotonic clock.
      now: () => performance.now(),
    });
    this.resume();
  }

  /**
   * Rebuilds a room from what PostgreSQL recorded: the game's starting state, then every recorded
   * input applied again in order, with the deadlines that fell between them, so that the room is
   * the one that stopped; acknowledged command ids get their original replies again. A deadline
   * that passed while no process had the room takes effect now, as the room comes back (await
   * `catchUp` before anyone watches): a question whose time ran out closes now, and the game goes
   * on from here rather than running out while nobody could play.
   */
  static restore<S, C extends Command, W, R, E>(
    ids: { code: string; roomId: string; openedAt: number },
    rules: GameRules<S, C, W, R, E>,
    restored: Restored<S, E>,
    deps: RoomActorDeps<W, R>,
  ): RoomActor<S, C, W, R, E> {
    const replies = new ReplyMemory();
    const ctx = (now: number): RuleContext => ({ now, random: seededRandom(deps.seed, now) });
    let state = restored.state;
    const late = [...(restored.lateDeadlines ?? [])];
    for (const recorded of restored.journal) {
      state = replayLate(rules, state, late, recorded.at, ctx);
      // An input recorded at its deadline's very moment was taken before the deadline fired.
      state = dueDeadlines(rules, state, (due) => due < recorded.at, ctx);
      let outcome: Outcome<S, W>;
      try {
        outcome = rules.replay(state, recorded.entry, ctx(recorded.at));
      } catch (err) {
        deps.log('error', 'a recorded input was refused on replay', { room: ids.code, entry: recorded.entry, error: String(err) });
        continue;
      }
      state = outcome.state;
      if (recorded.ack) replies.remember(seatKey(recorded.ack.actor), okReply(recorded.ack.commandId, outcome.reply ?? {}));
    }
    state = replayLate(rules, state, late, Infinity, ctx);
    for (const { actor, reply } of restored.acknowledged) replies.remember(seatKey(actor), reply);
    state = rules.onSignal(state, { kind: 'resumed' }, ctx(deps.clock.now())).state;
    return new RoomActor(ids.code, ids.roomId, rules, state, deps, replies, ids.openedAt);
  }

  /** The room as PostgreSQL has it (not counting steps in flight). */
  get snapshot(): S {
    return this.confirmed;
  }

  /** The fencing number of this process's lease on the room. */
  get fence(): number {
    return this.deps.fence ?? 0;
  }

  /** Statements of this room in flight. */
  get statementsInFlight(): number {
    return this.sentStatements - this.committedStatements;
  }

  get phase(): Lifecycle {
    return this.lifecycle;
  }

  get kind(): string {
    return this.rules.kind;
  }

  get mailboxDepth(): number {
    return this.mailbox.depth;
  }

  get mailboxDepthMax(): number {
    return this.mailbox.depthMax;
  }

  /** A batch is in hand or letters wait. */
  get isBusy(): boolean {
    return this.mailbox.busy || this.steps.length > 0;
  }

  /** Resolves once a deadline that passed while no process had the room has been taken. */
  catchUp(): Promise<void> {
    return this.idle();
  }

  /** Resolves once nothing waits in the mailbox and no step is in flight. */
  private async idle(): Promise<void> {
    for (;;) {
      await this.mailbox.whenIdle();
      if (this.steps.length === 0) return;
      await this.settledOnce();
    }
  }

  /** Arms the deadline, or takes at once (late, and recorded as such) one that already passed. */
  private resume(): void {
    const due = this.rules.nextDeadline(this.state);
    const now = this.deps.clock.now();
    if (due !== undefined && due < now) {
      this.mailbox.post({ kind: 'signal', signal: { kind: 'deadline' }, at: now, lateDue: due });
    } else {
      this.afterChange();
    }
  }

  /** A socket joins; its first frame is the room as it may see it. */
  attach(viewer: Viewer): { ok: true } | { ok: false; closeCode: number; reason: string } {
    if (this.lifecycle === 'disposed' || this.rules.isOver(this.confirmed)) {
      return { ok: false, closeCode: CloseCode.roomClosed, reason: 'room closed' };
    }
    const refusal = this.rules.admit(this.confirmed, viewer);
    if (refusal) return { ok: false, closeCode: refusal.closeCode, reason: refusal.reason };
    this.viewers.add(viewer);
    this.cancelIdle();
    this.sendView(viewer, this.deps.clock.now());
    if (viewer.seat) this.mailbox.post({ kind: 'signal', signal: { kind: 'presence', seat: viewer.seat, connected: true } });
    return { ok: true };
  }

  detach(viewer: Viewer): void {
    if (!this.viewers.remove(viewer)) return;
    if (viewer.seat && this.lifecycle !== 'disposed' && !this.viewers.isConnected(viewer.seat)) {
      this.mailbox.post({ kind: 'signal', signal: { kind: 'presence', seat: viewer.seat, connected: false } });
    }
    this.scheduleIdle();
  }

  /**
   * One command from a socket. Its reply goes to the socket directly, in order with the events
   * the command causes. Replays get their original reply; ping, type, role and shape are answered
   * at once; a command that would be refused whatever the statement in flight does is refused at
   * once too; the rest waits its turn in the mailbox.
   */
  submit(viewer: Viewer, frame: CommandFrame, arrival: Arrival): void {
    const seat = seatKey(viewer, viewer.socketId);
    if (this.replies.replay(seat, frame.id, (r) => viewer.sendReply(r))) return;
    this.replies.begin(seat, frame.id);
    const deliver = (reply: ReplyFrame) => {
      viewer.sendReply(reply);
      for (const resend of this.replies.settle(seat, frame.id, reply)) resend(reply);
    };
    if (frame.type === PING) {
      // Never through the mailbox: a ping does not wait behind the room's work.
      const reply = okReply(frame.id, { serverTime: this.deps.clock.now() });
      this.observe(frame.type, reply.status, arrival, 0, 0);
      return deliver(reply);
    }
    let command: C;
    try {
      command = this.rules.parseCommand(frame, viewer.role);
    } catch (err) {
      return deliver(this.refusal(frame.id, frame.type, err, arrival));
    }
    const closed = this.refuseWhenNotLive();
    if (closed) return deliver(this.refusal(frame.id, frame.type, closed, arrival));
    const certain = this.certainRefusal(viewer, command, arrival);
    if (certain) return deliver(this.refusal(frame.id, frame.type, certain, arrival));
    if (!this.mailbox.post({ kind: 'command', viewer, command, arrival, reply: deliver })) {
      deliver(this.refusal(frame.id, frame.type, new RoomException(RoomErrorCode.MailboxFull, 'the room is busy; retry shortly'), arrival));
    }
  }

  /** A command from an operator (the admin API), taken in turn like any other; resolves with its reply. */
  operatorCommand(frame: CommandFrame): Promise<ReplyFrame> {
    return new Promise<ReplyFrame>((resolve) => {
      const arrival = this.arrivalNow();
      let command: C;
      try {
        command = this.rules.parseCommand(frame, OPERATOR.role);
      } catch (err) {
        return resolve(this.refusal(frame.id, frame.type, err, arrival));
      }
      const closed = this.refuseWhenNotLive();
      if (closed) return resolve(errorReply(frame.id, closed));
      if (!this.mailbox.post({ kind: 'command', viewer: OPERATOR, command, arrival, reply: resolve })) {
        resolve(errorReply(frame.id, new RoomException(RoomErrorCode.MailboxFull, 'the room is busy; retry shortly')));
      }
    });
  }

  /**
   * A change asked for outside the socket protocol (an HTTP join), decided by `rule` in the room's
   * turn and committed like a command. Resolves with the rule's reply once it is committed.
   */
  propose(rule: (state: S, ctx: RuleContext) => Outcome<S, W>): Promise<unknown> {
    const closed = this.refuseWhenNotLive();
    if (closed) return Promise.reject(closed);
    return new Promise((resolve, reject) => {
      const done = (err: unknown, reply?: unknown) => (err ? reject(err) : resolve(reply));
      if (!this.mailbox.post({ kind: 'proposal', rule, arrival: this.arrivalNow(), done })) {
        reject(new RoomException(RoomErrorCode.MailboxFull, 'the room is busy; retry shortly'));
      }
    });
  }

  /** The room was closed outside the actor (HTTP API, operator, another instance); resolves once it has heard. */
  closedElsewhere(reason: string): Promise<void> {
    this.mailbox.post({ kind: 'signal', signal: { kind: 'closed', reason } });
    return this.idle();
  }

  /** Takes no new command, finishes what it holds, then leaves memory. */
  drain(): Promise<void> {
    if (this.lifecycle === 'disposed') return Promise.resolve();
    this.lifecycle = 'draining';
    return (this.drained ??= this.idle().then(() => this.dispose()));
  }

  /** Stops timers, answers whatever still waits, and leaves memory. */
  dispose(): void {
    if (this.lifecycle === 'disposed') return;
    this.lifecycle = 'disposed';
    this.deadline.clear();
    this.cancelIdle();
    clearTimeout(this.retryTimer);
    for (const m of this.mailbox.close()) {
      const closed = new RoomException(RoomErrorCode.RoomClosed, 'the room closed while the command waited');
      if (m.kind === 'command') m.reply(errorReply(m.command.id, closed));
      if (m.kind === 'proposal') m.done(closed);
    }
    this.deps.onDispose(this);
  }

  private async process(batch: Letter<Message<S, C, W>>[]): Promise<void> {
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
      const refusal = this.unavailable(err, batch.map((l) => l.message.command.type).join(','));
      for (const letter of batch) this.replyTo(letter, refusal, performance.now(), 0);
    }
  }

  /**
   * Commands that waited together: each is decided against the state its predecessors leave, all
   * their writes go in one statement, and only once it (and every statement before it) has
   * committed does anyone hear of them.
   */
  private handleCommands(letters: Letter<CommandMessage<C>>[]): void {
    const startedAt = performance.now();
    let round = this.decideAll(letters);
    let decided = round.decided;
    // A command whose budget is spent (it waited behind a stalled statement) gets 503 rather than
    // a statement it has no time for; one the rules refuse, or that writes nothing, is answered.
    const late = decided.filter((d) => d.outcome?.writes.length && this.remainingBudget(d.letter.message.arrival.hr) <= 0);
    if (late.length) {
      const unavailable = this.unavailable(new StoreUnavailableError('no time left in the command budget'));
      for (const d of late) this.replyTo(d.letter, unavailable, startedAt, 0);
      round = this.decideAll(letters.filter((l) => !late.some((d) => d.letter === l)));
      decided = round.decided;
    }
    if (decided.length === 0) return;
    const after = round.state;
    const writes = this.rules.mergeWrites(round.taken.flatMap((o) => o.writes));
    // The statement has the budget of the oldest command that writes.
    const writers = decided.filter((d) => d.outcome?.writes.length);
    const timeoutMs = writers.length ? this.remainingBudget(Math.min(...writers.map((d) => d.letter.message.arrival.hr))) : this.deps.commandBudgetMs;
    this.take({
      writes,
      after,
      timeoutMs,
      confirm: (committed) => {
        let outcomes = round.taken;
        const follow = committed.length ? this.rules.afterCommit?.(after, committed, this.context(this.deps.clock.now())) : undefined;
        if (follow) {
          outcomes = [...outcomes, follow];
          this.confirmed = this.state = follow.state;
        }
        for (const d of decided) this.replyTo(d.letter, d.outcome ? (d.outcome.reply ?? {}) : d.error, startedAt, writes.length);
        this.publish(outcomes);
      },
      refuse: (err, behindFailure) => {
        const unavailable = this.unavailable(err, decided[0].letter.message.command.type);
        // Behind a failed statement, even a refusal was decided against a state that never was.
        for (const d of decided) this.replyTo(d.letter, d.outcome || behindFailure ? unavailable : d.error, startedAt, 0);
      },
    });
    // Commands that queued behind this statement and that it cannot make acceptable need not wait for it.
    if (writes.length) this.mailbox.settleLeading((l) => this.settleIfRefused(l.message));
  }

  /**
   * Each command decided against the state its predecessors leave, after the deadlines due before
   * it (taken at the moments they were due): an input never overtakes a deadline, as in a replay.
   * `taken` is everything that changed the room, in order.
   */
  private decideAll(letters: Letter<CommandMessage<C>>[]): { decided: Decided<S, C, W>[]; taken: Outcome<S, W>[]; state: S } {
    let state = this.state;
    const taken: Outcome<S, W>[] = [];
    const decided = letters.map((letter): Decided<S, C, W> => {
      const m = letter.message;
      const overdue = this.overdue(state, m.arrival.at);
      taken.push(...overdue);
      state = overdue.at(-1)?.state ?? state;
      try {
        const outcome = this.rules.decide(state, m.viewer, m.command, this.context(m.arrival.at));
        state = outcome.state;
        taken.push(outcome);
        return { letter, outcome };
      } catch (error) {
        if (!(error instanceof RoomException)) throw error;
        return { letter, error };
      }
    });
    return { decided, taken, state };
  }

  private handleProposal(m: ProposalMessage<S, W>): void {
    let outcome: Outcome<S, W>;
    try {
      const now = this.deps.clock.now();
      const overdue = this.overdue(this.state, now);
      const decided = m.rule(overdue.at(-1)?.state ?? this.state, this.context(now));
      outcome = overdue.reduceRight((after, before) => chain(before, after), decided);
    } catch (err) {
      return m.done(err instanceof RoomException ? err : this.unavailable(err));
    }
    this.take({
      writes: outcome.writes,
      after: outcome.state,
      timeoutMs: this.remainingBudget(m.arrival.hr),
      confirm: () => {
        m.done(undefined, outcome.reply);
        this.publish([outcome]);
      },
      refuse: (err) => m.done(err instanceof RoomException ? err : this.unavailable(err)),
    });
  }

  /** A deadline, a presence change or an outside close. A timed change that fails is retried. */
  private handleSignal(m: SignalMessage): void {
    const at = m.at ?? this.deps.clock.now();
    // A deadline an earlier input already took (it was overdue when that input came) is spent.
    if (m.signal.kind === 'deadline' && m.lateDue === undefined && this.rules.nextDeadline(this.state) !== at) return;
    const overdue = m.signal.kind === 'deadline' ? [] : this.overdue(this.state, at);
    const signalled = this.rules.onSignal(overdue.at(-1)?.state ?? this.state, m.signal, this.context(at));
    const outcome = overdue.reduceRight((after, before) => chain(before, after), signalled);
    this.take({
      writes: outcome.writes,
      after: outcome.state,
      timeoutMs: this.deps.commandBudgetMs,
      late: m.lateDue !== undefined ? { due: m.lateDue, at } : undefined,
      confirm: () => this.publish([outcome]),
      refuse: (err) => {
        this.deps.log('warn', 'room could not commit a timed change; retrying', { room: this.code, signal: m.signal.kind, error: String(err) });
        if (m.signal.kind === 'deadline') this.retryLater(m);
      },
    });
  }

  private retryLater(m: SignalMessage): void {
    this.deadline.clear();
    clearTimeout(this.retryTimer);
    // A late deadline is taken when the retry succeeds, and recorded with that moment.
    const again = () => (m.lateDue !== undefined ? { ...m, at: this.deps.clock.now() } : m);
    this.retryTimer = setTimeout(() => this.mailbox.post(again()), RETRY_AFTER_FAILURE_MS);
  }

  /**
   * A decision is taken: the room's state becomes the one it leaves, and its statements leave now,
   * behind any still in flight (their order is kept on the way to PostgreSQL). It is confirmed
   * once they and every step before it have committed; if one before it fails, it is refused.
   */
  private take(decision: {
    writes: readonly W[];
    after: S;
    timeoutMs: number;
    late?: { due: number; at: number };
    confirm: (committed: Committed<W, R>[]) => void;
    refuse: (error: unknown, behindFailure: boolean) => void;
  }): void {
    const { writes, late } = decision;
    const statements = writes.length + (late ? 1 : 0);
    let committing: Promise<Committed<W, R>[]>;
    if (statements === 0) {
      committing = Promise.resolve([]);
    } else if (decision.timeoutMs <= 0) {
      committing = Promise.reject(new StoreUnavailableError('no time left in the command budget'));
    } else {
      const roomId = this.roomId;
      const fence = this.deps.fence ?? 0;
      let seq = this.sentStatements;
      const recorded = late ? this.deps.store.recordLateDeadline({ roomId, seq: seq++, fence }, late.due, late.at, decision.timeoutMs) : undefined;
      const results = writes.length ? this.deps.store.commit(writes, { roomId, seq, fence }, decision.timeoutMs) : Promise.resolve([] as R[]);
      this.sentStatements += statements;
      committing = Promise.all([recorded, results]).then(([, r]) => writes.map((write, i) => ({ write, result: r[i] })));
    }
    const step: Step<S, W, R> = {
      statements: decision.timeoutMs <= 0 ? 0 : statements,
      after: decision.after,
      barrier: writes.some((w) => this.rules.needsResult?.(w) ?? false),
      sentAt: performance.now(),
      confirm: decision.confirm,
      refuse: decision.refuse,
    };
    this.steps.push(step);
    this.state = decision.after;
    committing.then(
      (committed) => ((step.result = { ok: true, committed }), this.settle()),
      (error) => ((step.result = { ok: false, error }), this.settle()),
    );
    this.afterChange();
  }

  /** Confirms or refuses, in order, the steps at the head whose statements have answered. */
  private settle(): void {
    while (this.steps[0]?.result) {
      const step = this.steps.shift()!;
      const result = step.result!;
      if (result.ok) {
        this.committedStatements += step.statements;
        this.confirmed = step.after;
        if (step.statements > 0) this.commitMs = this.commitMs * 0.8 + (performance.now() - step.sentAt) * 0.2;
        step.confirm(result.committed);
        continue;
      }
      // Nothing decided after a failed statement is confirmed: every step behind it is refused
      // (its statements cannot apply: they extend a position the database never reached), and
      // the room is again what the database has.
      const behind = this.steps.splice(0);
      this.state = this.confirmed;
      this.sentStatements = this.committedStatements;
      step.refuse(result.error, false);
      for (const b of behind) b.refuse(new StoreUnavailableError('a statement before it failed'), true);
      if (result.error instanceof RoomOutOfOrderError) this.letGo();
      else this.afterChange();
    }
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  private settledOnce(): Promise<void> {
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Before the mailbox hands over its next batch: at once when nothing is in flight; behind a
   * step whose result the rules need, or a full pipeline, once that has settled; otherwise after
   * a short gathering window, so that commands arriving milliseconds apart share a statement.
   */
  private readyForNextBatch(): Promise<void> | undefined {
    const last = this.steps.at(-1);
    if (!last) return undefined;
    if (last.barrier || this.steps.length >= (this.deps.pipelineDepth ?? PIPELINE_DEPTH)) return this.settledOnce().then(() => this.readyForNextBatch());
    const fraction = this.steps.length >= 2 ? BUSY_GATHER_FRACTION : GATHER_FRACTION;
    const wait = Math.min(MAX_GATHER_MS, this.commitMs * fraction) - (performance.now() - last.sentAt);
    if (wait <= 0) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      this.settledOnce().then(() => (this.steps.length === 0 ? (clearTimeout(timer), resolve()) : undefined));
    });
  }

  /**
   * The database holds another history of this room than this process does, or this process no
   * longer holds its lease: the room goes, its sockets are told to reconnect (1012), and the next
   * one to come loads it from what the database has, wherever the room is owned then.
   */
  letGo(why = 'the database holds another history of it'): void {
    if (this.lifecycle === 'disposed') return;
    this.deps.log('warn', `room let go: ${why}; it loads again on the next connection`, { room: this.code });
    for (const v of this.viewers) v.close(CloseCode.roomReloading, 'room reloading');
    this.dispose();
  }

  /** Events to their audiences, fresh views where a client cannot derive them, then sockets to close. */
  private publish(outcomes: readonly Outcome<S, W>[]): void {
    const now = this.deps.clock.now();
    for (const o of outcomes) for (const e of o.events) this.viewers.deliver(e);
    if (outcomes.some((o) => o.resync)) for (const v of this.viewers) this.sendView(v, now);
    for (const o of outcomes) {
      for (const effect of o.effects) {
        if (effect.kind === 'release') {
          for (const seat of effect.seats) {
            this.replies.forgetSeat(seatKey({ role: 'player', seat }));
            for (const v of this.viewers.ofSeat(seat)) {
              this.viewers.remove(v);
              v.close(CloseCode.seatGone, 'seat released');
            }
          }
        } else {
          for (const v of this.viewers) v.close(CloseCode.roomClosed, `room closed: ${effect.reason}`);
          this.dispose();
        }
      }
    }
    this.afterChange();
  }

  private sendView(viewer: Viewer, now: number): void {
    // The profile is the socket's, not the game's: the engine says which one the socket got.
    const view = { ...this.rules.view(this.confirmed, viewer, now), wire: viewer.wire };
    viewer.sendEvent(outboundEvent(this.rules.stateEvent, view));
  }

  private afterChange(): void {
    if (this.lifecycle === 'disposed') return;
    this.deadline.set(this.rules.nextDeadline(this.state));
    this.scheduleIdle();
  }

  /**
   * While a statement is out and nothing else waits, a command that both the state before it and
   * the state it will leave refuse is refused now: it needs no database and need not wait for it.
   */
  private certainRefusal(viewer: Actor, command: C, arrival: Arrival, ahead = this.mailbox.depth): RoomException | undefined {
    if (this.steps.length === 0 || ahead > 0) return undefined;
    const ctx = this.context(arrival.at);
    const refusedBy = (state: S): RoomException | undefined => {
      try {
        // As it would be decided: after the deadlines due before it.
        this.rules.decide(this.overdue(state, arrival.at).at(-1)?.state ?? state, viewer, command, ctx);
        return undefined;
      } catch (err) {
        return err instanceof RoomException ? err : undefined;
      }
    };
    const after = refusedBy(this.state);
    return after && refusedBy(this.confirmed) ? after : undefined;
  }

  /** A waiting command at the head of the mailbox, answered now if it is refused either way. */
  private settleIfRefused(m: Message<S, C, W>): boolean {
    if (m.kind !== 'command') return false;
    const refusal = this.certainRefusal(m.viewer, m.command, m.arrival, 0);
    if (!refusal) return false;
    const reply = errorReply(m.command.id, refusal);
    m.reply(reply);
    this.observe(m.command.type, reply.status, m.arrival, 0, 0);
    return true;
  }

  private refuseWhenNotLive(): RoomException | undefined {
    if (this.lifecycle === 'draining') return new RoomException(RoomErrorCode.ShuttingDown, 'the server is shutting down; retry after reconnecting');
    if (this.lifecycle === 'disposed' || this.rules.isOver(this.state)) return new RoomException(RoomErrorCode.RoomClosed, 'the room is closed');
    return undefined;
  }

  private replyTo(letter: Letter<CommandMessage<C>>, result: unknown, startedAt: number, roundTrips: number): void {
    if (this.answered.has(letter)) return;
    this.answered.add(letter);
    const m = letter.message;
    const reply = result instanceof RoomException ? errorReply(m.command.id, result) : okReply(m.command.id, result ?? {});
    m.reply(reply);
    const waitMs = Math.max(0, startedAt - letter.enqueuedAt);
    this.observe(m.command.type, reply.status, m.arrival, waitMs, roundTrips);
  }

  private refusal(id: string, type: string, err: unknown, arrival: Arrival): ReplyFrame {
    const error = err instanceof RoomException ? err : this.unavailable(err);
    const reply = errorReply(id, error);
    this.observe(type, reply.status, arrival, 0, 0);
    return reply;
  }

  /** One measurement, two readers: the admin API's last commands and the metrics agree exactly. */
  private observe(type: string, status: number, arrival: Arrival, waitMs: number, roundTrips: number): void {
    // Labels come from the server's vocabulary only: a client cannot grow /metrics or the console.
    const label = this.known.has(type) ? type : 'unknown';
    const ms = Math.max(0, performance.now() - arrival.hr);
    this.stats.record({ type: label, at: this.deps.clock.now(), mailboxWaitMs: waitMs, ms, status, roundTrips });
    this.deps.observer.command(label, status, ms / 1000, waitMs / 1000);
    if (statusClass(status) === '5xx') this.deps.log('warn', 'command refused with 503', { room: this.code, command: clip(label) });
  }

  private unavailable(err: unknown, command?: string): RoomException {
    if (!(err instanceof StoreUnavailableError)) {
      this.deps.log('error', 'command failed unexpectedly', { room: this.code, command, error: err instanceof Error ? err.stack : String(err) });
    }
    return new RoomException(RoomErrorCode.DatabaseUnavailable, 'the database is unavailable; nothing was recorded, retry later');
  }

  private remainingBudget(arrivedHr: number): number {
    return this.deps.commandBudgetMs - REPLY_MARGIN_MS - (performance.now() - arrivedHr);
  }

  /**
   * The deadlines due before `at` that the timer has not brought yet (a busy event loop), taken in
   * order at the moments they were due, so that an input never overtakes one: a replay takes them
   * the same way before an input recorded at `at`.
   */
  private overdue(state: S, at: number): Outcome<S, W>[] {
    const taken: Outcome<S, W>[] = [];
    for (let i = 0; i < MAX_CATCH_UP; i++) {
      const due = this.rules.nextDeadline(state);
      if (due === undefined || due >= at) break;
      const outcome = this.rules.onSignal(state, { kind: 'deadline' }, this.context(due));
      if (outcome.state === state) break;
      taken.push(outcome);
      state = outcome.state;
    }
    return taken;
  }

  private context(now: number): RuleContext {
    return { now, random: seededRandom(this.deps.seed, now) };
  }

  private arrivalNow(): Arrival {
    return { at: this.deps.clock.now(), hr: performance.now() };
  }

  private scheduleIdle(): void {
    if (this.lifecycle !== 'live' || this.viewers.size > 0 || this.idleTimer) return;
    const over = this.rules.isOver(this.confirmed);
    if (!over && !this.rules.mayPassivate(this.confirmed)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.viewers.size === 0 && !this.isBusy && this.mailbox.depth === 0) {
        this.deps.log('info', 'room passivated', { room: this.code, phase: this.rules.summarize(this.confirmed).phase });
        this.dispose();
      }
    }, over ? 0 : this.deps.passivateAfterMs);
    this.idleTimer.unref();
  }

  private cancelIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/** The replay memory's key: a player's seat, the host, or a spectator's socket. */
function seatKey(actor: Actor, socketId = ''): string {
  if (actor.role === 'player') return `p:${actor.seat}`;
  return actor.role === 'host' ? 'host' : `s:${socketId}`;
}

/**
 * Takes, in order, the late deadlines recorded before `until`, each at its own moment, after the
 * deadlines that fell on time before it; a late deadline that no longer matches is dropped.
 */
function replayLate<S, C extends Command, W, R, E>(
  rules: GameRules<S, C, W, R, E>,
  state: S,
  late: { due: number; at: number }[],
  until: number,
  ctx: (now: number) => RuleContext,
): S {
  late.sort((a, b) => a.at - b.at);
  while (late.length > 0 && late[0].at <= until) {
    const { due, at } = late.shift()!;
    state = dueDeadlines(rules, state, (d) => d < due, ctx);
    if (rules.nextDeadline(state) === due) state = rules.onSignal(state, { kind: 'deadline' }, ctx(at)).state;
  }
  return state;
}

/** Fires, in order, the deadlines that `isDue` (their writes were committed before what follows). */
function dueDeadlines<S, C extends Command, W, R, E>(
  rules: GameRules<S, C, W, R, E>,
  state: S,
  isDue: (due: number) => boolean,
  ctx: (now: number) => RuleContext,
): S {
  for (let i = 0; i < MAX_CATCH_UP; i++) {
    const due = rules.nextDeadline(state);
    if (due === undefined || !isDue(due)) return state;
    const next = rules.onSignal(state, { kind: 'deadline' }, ctx(due)).state;
    if (next === state) return state;
    state = next;
  }
  return state;
}
