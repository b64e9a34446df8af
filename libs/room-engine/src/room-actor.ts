import { CloseCode, CommandFrame, ReplyFrame } from '@app/protocol';
import { Viewer, Viewers } from './audience';
import { BatchHandler } from './batch-handler';
import { Clock } from './clock';
import { CommandGate, CommandObserver } from './command-gate';
import { CommitPipeline } from './commit-pipeline';
import { GameRules, Outcome, Restored, RuleContext } from './game-rules';
import { Mailbox } from './mailbox';
import { ReplyMemory, seatKey } from './reply-memory';
import { Lifecycle, RoomLifecycle } from './room-lifecycle';
import { Arrival, Command, Message } from './room-message';
import { RoomPublisher } from './room-publisher';
import { RoomStats } from './room-stats';
import { RoomStore } from './room-store';
import { RuleDriver } from './rule-driver';
import { Scheduler, systemScheduler } from './scheduler';

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
  /** Monotonic time and timers (latency, budgets, gathering, the room's timers); the event loop's when absent. */
  readonly scheduler?: Scheduler;
  /** Called when the room goes out of memory (passivated, closed or drained). */
  readonly onDispose: (room: RoomActor<any, any, any, any, any>) => void;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * The actor of one live room, for any game. It owns the room's state; commands, deadlines and
 * signals enter its mailbox and are handled one batch at a time. The rules decide; the actor
 * commits what they decided in one statement per batch and only then tells anyone. An idle room
 * sends nothing to PostgreSQL.
 *
 * It is the facade of its collaborators, all on one scheduler: the command gate (intake,
 * refusals, replies), the batch handler (what each batch comes to), the rule driver (deadline
 * catch-up, live and in replay), the commit pipeline (steps in flight, ordered confirmation, the
 * gathering window), the publisher (events, views, effects) and the lifecycle (phase, timers).
 *
 * @example
 * const room = RoomActor.restore({ code, roomId, openedAt }, rules, restored, deps);
 * room.attach(viewer);                      // its first frame is the room as it may see it
 * room.submit(viewer, frame, arrival);      // the reply goes to the viewer, after the commit
 */
export class RoomActor<S, C extends Command, W, R, E> {
  readonly viewers = new Viewers();
  readonly stats: RoomStats;
  private readonly rules: GameRules<S, C, W, R, E>;
  private readonly lifecycle: RoomLifecycle;
  private readonly pipeline: CommitPipeline<S, W, R>;
  private readonly mailbox: Mailbox<Message<S, C, W>>;
  private readonly gate: CommandGate<S, C, W>;
  private readonly publisher: RoomPublisher<S>;
  private readonly batches: BatchHandler<S, C, W, R>;

  private constructor(
    readonly code: string,
    readonly roomId: string,
    driver: RuleDriver<S, C, W, R, E>,
    state: S,
    private readonly deps: RoomActorDeps<W, R>,
    replies: ReplyMemory,
    /** When the room was opened (epoch ms), for operators. */
    readonly openedAt: number,
  ) {
    const rules = (this.rules = driver.rules);
    const scheduler = deps.scheduler ?? systemScheduler;
    this.stats = new RoomStats(deps.clock.now());
    this.lifecycle = new RoomLifecycle({
      scheduler,
      clock: deps.clock,
      onDeadline: (at) => this.mailbox.post({ kind: 'signal', signal: { kind: 'deadline' }, at }),
      idleAfterMs: () => this.idleAfterMs(),
      onIdle: () => this.passivateIfIdle(),
    });
    this.pipeline = new CommitPipeline(state, {
      store: deps.store,
      roomId,
      fence: deps.fence ?? 0,
      needsResult: (w) => rules.needsResult?.(w) ?? false,
      depth: deps.pipelineDepth,
      committedStatements: deps.committedStatements,
      scheduler,
      changed: () => this.afterChange(),
      outOfOrder: () => this.letGo(),
    });
    this.mailbox = new Mailbox<Message<S, C, W>>({
      maxDepth: deps.mailboxDepth,
      isBounded: (m) => m.kind !== 'signal',
      batchKey: (m) => (m.kind === 'command' ? rules.batchKey(m.command) : null),
      process: (batch) => this.batches.process(batch),
      beforeBatch: () => this.pipeline.readyForNextBatch(),
      onError: (err) => deps.log('error', 'room handler failed', { room: this.code, error: String(err) }),
      scheduler,
    });
    const { clock, observer, log } = deps;
    const notLive = () => this.lifecycle.refusal(() => rules.isOver(this.pipeline.state));
    this.gate = new CommandGate({ code, driver, mailbox: this.mailbox, pipeline: this.pipeline, notLive, replies, stats: this.stats, observer, clock, scheduler, log });
    this.publisher = new RoomPublisher({ viewers: this.viewers, rules, clock, confirmed: () => this.pipeline.confirmed, replies, close: () => this.dispose() });
    this.batches = new BatchHandler({
      code,
      driver,
      pipeline: this.pipeline,
      gate: this.gate,
      commandBudgetMs: deps.commandBudgetMs,
      clock,
      scheduler,
      publish: (outcomes) => this.publish(outcomes),
      retryLater: (again) => this.lifecycle.retryLater(() => this.mailbox.post(again())),
      log,
    });
    this.resume();
  }

  /**
   * Rebuilds a room from what PostgreSQL recorded: the game's starting state, then every recorded
   * input applied again in order, with the deadlines that fell between them, so that the room is
   * the one that stopped; acknowledged command ids get their original replies again. A deadline
   * that passed while no process had the room takes effect now, as the room comes back (await
   * `catchUp` before anyone watches): a turn whose time ran out ends now, and the game goes
   * on from here rather than running out while nobody could play.
   */
  static restore<S, C extends Command, W, R, E>(
    ids: { code: string; roomId: string; openedAt: number },
    rules: GameRules<S, C, W, R, E>,
    restored: Restored<S, E>,
    deps: RoomActorDeps<W, R>,
  ): RoomActor<S, C, W, R, E> {
    const replies = new ReplyMemory();
    const driver = new RuleDriver(rules, deps.seed);
    let state = driver.replay(restored, {
      refused: (entry, err) => deps.log('error', 'a recorded input was refused on replay', { room: ids.code, entry, error: String(err) }),
      acknowledged: (actor, reply) => replies.remember(seatKey(actor), reply),
    });
    for (const { actor, reply } of restored.acknowledged) replies.remember(seatKey(actor), reply);
    state = rules.onSignal(state, { kind: 'resumed' }, driver.context(deps.clock.now())).state;
    return new RoomActor(ids.code, ids.roomId, driver, state, deps, replies, ids.openedAt);
  }

  /** The room as PostgreSQL has it (not counting steps in flight). */
  get snapshot(): S {
    return this.pipeline.confirmed;
  }

  /** The fencing number of this process's lease on the room. */
  get fence(): number {
    return this.deps.fence ?? 0;
  }

  /** Statements of this room in flight. */
  get statementsInFlight(): number {
    return this.pipeline.statementsInFlight;
  }

  get phase(): Lifecycle {
    return this.lifecycle.phase;
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
    return this.mailbox.busy || this.pipeline.inFlight > 0;
  }

  /** Resolves once a deadline that passed while no process had the room has been taken. */
  catchUp(): Promise<void> {
    return this.idle();
  }

  /** A socket joins; its first frame is the room as it may see it. */
  attach(viewer: Viewer): { ok: true } | { ok: false; closeCode: number; reason: string } {
    const confirmed = this.pipeline.confirmed;
    if (this.lifecycle.phase === 'disposed' || this.rules.isOver(confirmed)) {
      return { ok: false, closeCode: CloseCode.roomClosed, reason: 'room closed' };
    }
    const refusal = this.rules.admit(confirmed, viewer);
    if (refusal) return { ok: false, closeCode: refusal.closeCode, reason: refusal.reason };
    this.viewers.add(viewer);
    this.lifecycle.cancelIdle();
    this.publisher.sendView(viewer, this.deps.clock.now());
    if (viewer.seat) this.mailbox.post({ kind: 'signal', signal: { kind: 'presence', seat: viewer.seat, connected: true } });
    return { ok: true };
  }

  detach(viewer: Viewer): void {
    if (!this.viewers.remove(viewer)) return;
    if (viewer.seat && this.lifecycle.phase !== 'disposed' && !this.viewers.isConnected(viewer.seat)) {
      this.mailbox.post({ kind: 'signal', signal: { kind: 'presence', seat: viewer.seat, connected: false } });
    }
    this.lifecycle.scheduleIdle();
  }

  /**
   * One command from a socket. Its reply goes to the socket directly, in order with the events
   * the command causes. Replays get their original reply; ping, type, role and shape are answered
   * at once; a command that would be refused whatever the statement in flight does is refused at
   * once too; the rest waits its turn in the mailbox.
   */
  submit(viewer: Viewer, frame: CommandFrame, arrival: Arrival): void {
    this.gate.submit(viewer, frame, arrival);
  }

  /** A command from an operator (the admin API), taken in turn like any other; resolves with its reply. */
  operatorCommand(frame: CommandFrame): Promise<ReplyFrame> {
    return this.gate.operatorCommand(frame);
  }

  /**
   * A change asked for outside the socket protocol (an HTTP join), decided by `rule` in the room's
   * turn and committed like a command. Resolves with the rule's reply once it is committed.
   */
  propose(rule: (state: S, ctx: RuleContext) => Outcome<S, W>): Promise<unknown> {
    return this.gate.propose(rule);
  }

  /** The room was closed outside the actor (HTTP API, operator, another instance); resolves once it has heard. */
  closedElsewhere(reason: string): Promise<void> {
    this.mailbox.post({ kind: 'signal', signal: { kind: 'closed', reason } });
    return this.idle();
  }

  /** Takes no new command, finishes what it holds, then leaves memory. */
  drain(): Promise<void> {
    return this.lifecycle.drain(() => this.idle(), () => this.dispose());
  }

  /**
   * The database holds another history of this room than this process does, or this process no
   * longer holds its lease: the room goes, its sockets are told to reconnect (1012), and the next
   * one to come loads it from what the database has, wherever the room is owned then.
   */
  letGo(why = 'the database holds another history of it'): void {
    if (this.lifecycle.phase === 'disposed') return;
    this.deps.log('warn', `room let go: ${why}; it loads again on the next connection`, { room: this.code });
    for (const v of this.viewers) v.close(CloseCode.roomReloading, 'room reloading');
    this.dispose();
  }

  /** Stops timers, answers whatever still waits, and leaves memory. */
  dispose(): void {
    if (!this.lifecycle.end()) return;
    this.gate.close();
    this.deps.onDispose(this);
  }

  /** Resolves once nothing waits in the mailbox and no step is in flight. */
  private async idle(): Promise<void> {
    for (;;) {
      await this.mailbox.whenIdle();
      if (this.pipeline.inFlight === 0) return;
      await this.pipeline.settledOnce();
    }
  }

  /** Arms the deadline, or takes at once (late, and recorded as such) one that already passed. */
  private resume(): void {
    const due = this.rules.nextDeadline(this.pipeline.state);
    const now = this.deps.clock.now();
    if (due !== undefined && due < now) {
      this.mailbox.post({ kind: 'signal', signal: { kind: 'deadline' }, at: now, lateDue: due });
    } else {
      this.afterChange();
    }
  }

  /** Events to their audiences, fresh views where a client cannot derive them, then sockets to close. */
  private publish(outcomes: readonly Outcome<S, W>[]): void {
    this.publisher.publish(outcomes);
    this.afterChange();
  }

  private afterChange(): void {
    if (this.lifecycle.phase === 'disposed') return;
    this.lifecycle.setDeadline(this.rules.nextDeadline(this.pipeline.state));
    this.lifecycle.scheduleIdle();
  }

  /** Unwatched, a room that is over leaves memory at once; one whose rules allow it, after a quiet while. */
  private idleAfterMs(): number | undefined {
    if (this.viewers.size > 0) return undefined;
    const confirmed = this.pipeline.confirmed;
    if (this.rules.isOver(confirmed)) return 0;
    return this.rules.mayPassivate(confirmed) ? this.deps.passivateAfterMs : undefined;
  }

  private passivateIfIdle(): void {
    if (this.viewers.size > 0 || this.isBusy || this.mailbox.depth > 0) return;
    this.deps.log('info', 'room passivated', { room: this.code, phase: this.rules.summarize(this.pipeline.confirmed).phase });
    this.dispose();
  }
}
