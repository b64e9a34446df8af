import { CloseCode, CommandFrame, ReplyFrame, RoomException } from '@app/protocol';
import { outboundEvent, Viewer, Viewers } from './audience';
import { BatchHandler } from './batch-handler';
import { Clock } from './clock';
import { ClockHold, pausedEvent, resumedEvent } from './clock-hold';
import { CommandGate, CommandObserver } from './command-gate';
import { CommitPipeline } from './commit-pipeline';
import { GameRules, Outcome } from './game-rules';
import { Mailbox } from './mailbox';
import { ReplyMemory, ReplyMemoryBounds, ReplyMemoryStats, seatKey } from './reply-memory';
import { Lifecycle, RoomLifecycle } from './room-lifecycle';
import { Arrival, Command, Message } from './room-message';
import { RefusalHook } from './refused-command';
import { RoomPublisher } from './room-publisher';
import { RoomStats } from './room-stats';
import { Restored, RoomStore } from './room-store';
import { RuleDriver } from './rule-driver';
import { Scheduler, systemScheduler } from './scheduler';

export interface RoomActorDeps {
  readonly store: RoomStore;
  readonly clock: Clock;
  readonly observer: CommandObserver;
  /** Hears of every refusal the room answers. It must not block, so a recorder buffers what it hears. */
  readonly onRefusal?: RefusalHook;
  readonly mailboxDepth: number;
  /**
   * The most decisions whose statements may be in flight at once (1 means nothing is pipelined).
   * Further waiting commands gather in the mailbox.
   */
  readonly pipelineDepth?: number;
  readonly passivateAfterMs: number;
  /** Every command is answered within this many ms of its arrival, whatever PostgreSQL does. */
  readonly commandBudgetMs: number;
  /** Seeds the rules' random source. */
  readonly seed: number;
  /** The room's secret for the ids its rules hand out (`ctx.id`). It stays the same across restarts and instances. */
  readonly idSecret?: string;
  /** How many of the room's statements PostgreSQL has applied (rooms.commit_seq). The next statement goes after them. */
  readonly committedStatements: number;
  /** The fencing number of this process's lease on the room, carried by every statement. */
  readonly fence?: number;
  /**
   * Monotonic time and timers, used for latency, budgets, gathering and the room's own timers. When
   * absent, the room uses the event loop's.
   */
  readonly scheduler?: Scheduler;
  /** How much of its replies the room remembers for resends. When absent, DEFAULT_REPLY_MEMORY applies. */
  readonly replyMemory?: ReplyMemoryBounds;
  /** Called when the room goes out of memory (passivated, closed or drained). */
  readonly onDispose: (room: RoomActor<any, any>) => void;
  /**
   * Hears of each throw the room caught while it settled or published a committed step. The hook
   * counts it, and the room lets itself go.
   */
  readonly onFault?: (error: unknown) => void;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * The actor of one live room, for any game. It owns the room's state. Commands, deadlines and
 * signals enter its mailbox, and the actor handles them one batch at a time. The rules decide;
 * the actor commits what they decided in one statement per batch, and only then tells anyone. An
 * idle room sends nothing to PostgreSQL.
 *
 * The actor is the facade of its collaborators, which all run on one scheduler: the command gate
 * (intake, refusals, replies), the batch handler (what each batch comes to), the rule driver
 * (deadline catch-up, live and in replay), the commit pipeline (steps in flight, confirmation in
 * order, the gathering window), the publisher (events, views, effects) and the lifecycle (phase,
 * timers).
 *
 * @example
 * const room = RoomActor.restore({ code, roomId, openedAt }, rules, restored, deps);
 * room.attach(viewer);                      // the viewer's first frame is the room as it may see it
 * room.submit(viewer, frame, arrival);      // the reply goes to the viewer after the commit
 */
export class RoomActor<S, C extends Command> {
  readonly viewers = new Viewers();
  readonly stats: RoomStats;
  private readonly rules: GameRules<S, C>;
  private readonly lifecycle: RoomLifecycle;
  private readonly pipeline: CommitPipeline<S>;
  private readonly mailbox: Mailbox<Message<C>>;
  private readonly gate: CommandGate<S, C>;
  private readonly publisher: RoomPublisher<S>;
  private readonly batches: BatchHandler<S, C>;
  private readonly hold: ClockHold<S>;

  private constructor(
    readonly code: string,
    readonly roomId: string,
    driver: RuleDriver<S, C>,
    state: S,
    private readonly deps: RoomActorDeps,
    private readonly replies: ReplyMemory,
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
      game: rules.kind,
      fence: deps.fence ?? 0,
      depth: deps.pipelineDepth,
      committedStatements: deps.committedStatements,
      owedReplies: (acks) => replies.owed(acks),
      snapshotOf: (s) => rules.snapshotOf?.(s) ?? s,
      scheduler,
      changed: () => this.afterChange(),
      letGo: (why) => this.letGo(why),
      faulted: (error) => this.faulted(error),
      unavailable: (decidedAt) => this.hold.writeFailed(decidedAt),
    });
    this.hold = new ClockHold<S>({
      shift: (s, ms) => driver.shiftClocks(s, ms),
      nextDeadline: () => rules.nextDeadline(this.pipeline.confirmed),
      decidedDeadline: () => rules.nextDeadline(this.pipeline.state),
      now: () => deps.clock.now(),
      scheduler,
      paused: (since) => this.clocksPaused(since),
      resumed: (ms) => this.clocksResumed(ms),
      tryLater: () => {
        if (this.lifecycle.phase !== 'disposed') this.lifecycle.retryLater(() => this.mailbox.post({ kind: 'resume' }));
      },
    });
    this.mailbox = new Mailbox<Message<C>>({
      maxDepth: deps.mailboxDepth,
      // Only what clients send counts against the bound; the room's own letters always enter.
      isBounded: (m) => m.kind === 'command' || m.kind === 'proposal',
      batchKey: (m) => (m.kind === 'command' ? rules.batchKey(m.command) : null),
      process: (batch) => this.batches.process(batch),
      beforeBatch: () => this.hold.untilTried() ?? this.pipeline.readyForNextBatch(),
      onError: (err) => deps.log('error', 'room handler failed', { room: this.code, error: String(err) }),
      scheduler,
    });
    const { clock, observer, log } = deps;
    const notLive = () => this.lifecycle.refusal(() => rules.isOver(this.pipeline.state));
    this.gate = new CommandGate({
      code,
      driver,
      mailbox: this.mailbox,
      pipeline: this.pipeline,
      notLive,
      replies,
      stats: this.stats,
      observer,
      refused: deps.onRefusal,
      clock,
      scheduler,
      moment: (at) => this.hold.moment(at),
      log,
    });
    this.publisher = new RoomPublisher({
      viewers: this.viewers,
      rules,
      clock,
      confirmed: () => this.pipeline.confirmed,
      close: () => this.dispose(),
    });
    this.batches = new BatchHandler({
      code,
      driver,
      pipeline: this.pipeline,
      gate: this.gate,
      hold: this.hold,
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
   * Rebuilds a room from its journal. It starts from the room's latest snapshot, then applies
   * every input again in order, with the deadlines that fell between them, so that the rebuilt
   * room is the one that stopped. Acknowledged command ids get their original replies again. A
   * deadline that passed while no process had the room takes effect now, as the room comes back
   * (await `catchUp` before anyone watches). So a turn whose time ran out ends now, and the game
   * goes on from here, rather than running out while nobody could play.
   */
  static restore<S, C extends Command>(
    ids: { code: string; roomId: string; openedAt: number },
    rules: GameRules<S, C>,
    restored: Restored<S>,
    deps: RoomActorDeps,
  ): RoomActor<S, C> {
    // Rebuild the replies the room remembered: first the snapshot's, then those acknowledged after it, in order.
    const replies = new ReplyMemory(deps.replyMemory);
    for (const { seat, reply } of restored.replies) replies.remember(seat, reply);
    const driver = new RuleDriver(rules, deps.seed, deps.idSecret);
    const state = driver.replay(restored.state, restored.journal, {
      refused: (entry, err) =>
        deps.log('error', 'a journaled input was refused on replay', { room: ids.code, input: entry.kind, error: String(err) }),
      // A spectator's replies were remembered for its socket, and that socket is gone.
      acknowledged: (actor, reply) => {
        if (actor.role !== 'spectator') replies.remember(seatKey(actor), reply);
      },
    });
    return new RoomActor(ids.code, ids.roomId, driver, state, deps, replies, ids.openedAt);
  }

  /** The room as PostgreSQL has it, without the steps still in flight. */
  get snapshot(): S {
    return this.pipeline.confirmed;
  }

  /** The fencing number of this process's lease on the room. */
  get fence(): number {
    return this.deps.fence ?? 0;
  }

  /** How many of this room's statements are in flight. */
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

  /** What the room remembers of its replies now. */
  get replyMemory(): ReplyMemoryStats {
    return this.replies.stats();
  }

  /** Whether the room is handling a batch, has letters waiting, or has a step in flight. */
  get isBusy(): boolean {
    return this.mailbox.busy || this.pipeline.inFlight > 0;
  }

  /** Resolves once a deadline that passed while no process had the room has been taken. */
  catchUp(): Promise<void> {
    return this.idle();
  }

  /** Lets a socket join. Its first frame is the room as that viewer may see it. */
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
    // When the room's clocks are held, this socket hears of it too, right after the room as it stands.
    const since = this.hold.since;
    if (since !== undefined) {
      const paused = pausedEvent(since);
      viewer.sendEvent(outboundEvent(paused.type, paused.data));
    }
    if (viewer.seat) this.mailbox.post({ kind: 'signal', signal: { kind: 'presence', seat: viewer.seat, connected: true } });
    return { ok: true };
  }

  detach(viewer: Viewer): void {
    if (!this.viewers.remove(viewer)) return;
    // A spectator's reply memory belongs to its socket, because no later socket can resend under it.
    if (viewer.role === 'spectator') this.replies.forgetSocket(seatKey(viewer, viewer.socketId));
    if (viewer.seat && this.lifecycle.phase !== 'disposed' && !this.viewers.isConnected(viewer.seat)) {
      this.mailbox.post({ kind: 'signal', signal: { kind: 'presence', seat: viewer.seat, connected: false } });
    }
    this.lifecycle.scheduleIdle();
  }

  /**
   * Takes one command from a socket. Its reply goes to the socket directly, in order with the
   * events the command causes. A replayed command gets its original reply. A ping, and a command
   * with a bad type, role or shape, are answered at once. A command that would be refused whatever
   * the statement in flight does is also refused at once. Every other command waits its turn in
   * the mailbox.
   */
  submit(viewer: Viewer, frame: CommandFrame, arrival: Arrival): void {
    this.gate.submit(viewer, frame, arrival);
  }

  /**
   * Records a command from this viewer's socket that was refused before it reached the room (the
   * socket's rate, a draining server). The refusal hook hears of it like the room's own refusals.
   */
  refusedBefore(viewer: Viewer, type: string, error: RoomException, at: number): void {
    this.gate.refusedBefore(viewer, type, error, at);
  }

  /** Takes a command from an operator (the admin API) in turn like any other, and resolves with its reply. */
  operatorCommand(frame: CommandFrame): Promise<ReplyFrame> {
    return this.gate.operatorCommand(frame);
  }

  /**
   * Asks for a change that arrived outside the socket protocol (such as an HTTP join): the rules'
   * proposal `name` with `args` (JSON). The room decides it in turn and journals it like a command.
   * Resolves with its reply once it is committed.
   */
  propose(name: string, args: unknown): Promise<unknown> {
    return this.gate.propose(name, args);
  }

  /**
   * Tells the room that something outside the actor closed it (HTTP API, operator, another
   * instance). Resolves once the room has taken the news.
   */
  closedElsewhere(reason: string): Promise<void> {
    this.mailbox.post({ kind: 'signal', signal: { kind: 'closed', reason } });
    return this.idle();
  }

  /** Stops taking new commands, finishes what the room holds, then leaves memory. */
  drain(): Promise<void> {
    return this.lifecycle.drain(
      () => this.idle(),
      () => this.dispose(),
    );
  }

  /**
   * Drops the room from this process. The engine calls it when the database holds a different
   * history of this room than this process does, or when this process no longer holds the room's
   * lease. The room's sockets are told to reconnect (1012), and the next connection loads the room
   * from what the database has, on whichever instance owns the room then.
   */
  letGo(why = 'the database holds another history of it'): void {
    if (this.lifecycle.phase === 'disposed') return;
    this.deps.log('warn', `room let go: ${why}; it loads again on the next connection`, { room: this.code });
    for (const v of this.viewers) v.close(CloseCode.roomReloading, 'room reloading');
    this.dispose();
  }

  /**
   * Handles a throw from the room's own code while it settled or published a committed step (a bug
   * in its game or in the engine). What its sockets were told may be half done, so the room is let
   * go, and the next connection loads it again from what PostgreSQL committed. No other room is
   * touched.
   */
  private faulted(error: unknown): void {
    // `error` carries the stack for whoever fixes the bug; `reason` is the one-line summary.
    const stack = error instanceof Error ? error.stack : undefined;
    this.deps.log('error', 'room failed after a commit: its own code threw', {
      room: this.code,
      roomId: this.roomId,
      reason: String(error),
      error: stack ?? String(error),
    });
    this.deps.onFault?.(error);
    this.letGo(`its own code threw after a commit (${String(error)})`);
  }

  /** Stops the timers, answers whatever still waits, and leaves memory. */
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

  /**
   * Tells the rules that the room is back in a fresh process, where nobody is connected yet. Then
   * it arms the room's deadline, or takes at once a deadline that already passed (late, and
   * journaled as late).
   */
  private resume(): void {
    this.mailbox.post({ kind: 'signal', signal: { kind: 'resumed' } });
    const due = this.rules.nextDeadline(this.pipeline.state);
    const now = this.deps.clock.now();
    if (due !== undefined && due < now) {
      this.mailbox.post({ kind: 'signal', signal: { kind: 'deadline' }, at: now, lateDue: due });
    } else {
      this.afterChange();
    }
  }

  /**
   * Sends the events to their audiences, then fresh views where a client cannot derive the change,
   * then closes the sockets the outcomes close.
   */
  private publish(outcomes: readonly Outcome<S>[]): void {
    this.publisher.publish(outcomes);
    this.afterChange();
  }

  private afterChange(): void {
    if (this.lifecycle.phase === 'disposed') return;
    // While the clocks are held, no deadline rings. The room's own attempts to resume the clocks take its place.
    this.lifecycle.setDeadline(this.hold.held ? undefined : this.rules.nextDeadline(this.pipeline.state));
    this.lifecycle.scheduleIdle();
  }

  /** The room's clocks stopped at `since` because its writes fail. Every socket hears of it, and pages show the pause. */
  private clocksPaused(since: number): void {
    this.deps.log('warn', 'room clocks held: the database cannot record the room now', { room: this.code, since });
    this.viewers.deliver(pausedEvent(since));
  }

  /**
   * A write that carried the hold has committed. Every socket hears of it and receives the room with
   * its clocks moved on.
   */
  private clocksResumed(ms: number): void {
    this.deps.log('info', 'room clocks resumed', { room: this.code, heldMs: ms });
    this.lifecycle.cancelRetry();
    this.publish([{ state: this.pipeline.confirmed, events: [resumedEvent(ms)], effects: [], resync: true }]);
  }

  /**
   * How long an unwatched room waits before it leaves memory. A room that is over leaves at once; a
   * room whose rules allow it leaves after a quiet while; any other room stays.
   */
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
