import {
  CloseCode,
  CommandFrame,
  errorReply,
  okReply,
  ReplyFrame,
  RoomErrorCode,
  RoomException,
  statusClass,
  validateCommand,
} from '@app/protocol';
import { DatabaseUnavailableError } from '@app/persistence';
import { Arrival, Audience, Clock, Deadline, Letter, Mailbox, ReplyMemory, RoomStats, Viewer } from '@app/room-engine';
import {
  batchKindOf,
  decide,
  gameStarted,
  join,
  mergeWrites,
  nextDeadline,
  onDeadline,
  Outcome,
  RoomCommand,
  roomClosed,
  setPresence,
  TriviaState,
  viewRoom,
  Write,
} from '@app/trivia';
import { CommitResult, RoomCommitter } from './room-committer';

type CommandMessage = { kind: 'command'; viewer: Viewer; command: RoomCommand; arrival: Arrival; reply: (r: ReplyFrame) => void };
type RoomMessage =
  | CommandMessage
  | { kind: 'join'; playerId: string; name: string; done: (err?: unknown) => void }
  | { kind: 'deadline' }
  | { kind: 'presence'; playerId: string }
  | { kind: 'closed'; reason: string };

/** What a room reports about each command it handles. */
export interface CommandObserver {
  command(type: string, status: number, seconds: number, mailboxWaitSeconds: number): void;
}

export interface TriviaRoomDeps {
  readonly committer: RoomCommitter;
  readonly clock: Clock;
  readonly observer: CommandObserver;
  readonly mailboxDepth: number;
  readonly passivateAfterMs: number;
  /** Called when the room goes out of memory (passivated or closed). */
  readonly onDispose: (room: TriviaRoom) => void;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

const RETRY_AFTER_DB_FAILURE_MS = 1000;

/** The admin API acting with the host's rights; it has no socket. */
const OPERATOR: Viewer = {
  socketId: 'operator',
  role: 'host',
  wire: 'json',
  sendEvent: () => undefined,
  sendReply: () => undefined,
  close: () => undefined,
};

/**
 * The actor of one live trivia room. It owns the room's state; commands, the question clock and
 * change signals enter its mailbox and are handled one batch at a time. Nothing is told to
 * anyone before PostgreSQL has committed it, and an idle room sends nothing to PostgreSQL.
 */
export class TriviaRoom {
  readonly audience = new Audience();
  readonly stats: RoomStats;
  private readonly mailbox: Mailbox<RoomMessage>;
  private readonly deadline: Deadline;
  private readonly replies = new ReplyMemory();
  /** Letters already replied to: a reply is sent once, whatever happens after. */
  private readonly answered = new WeakSet<Letter<CommandMessage>>();
  private idleTimer?: NodeJS.Timeout;
  private disposed = false;

  constructor(
    private state: TriviaState,
    private readonly deps: TriviaRoomDeps,
    /** When the room was opened (epoch ms), for operators. */
    readonly openedAt: number = deps.clock.now(),
  ) {
    const now = () => deps.clock.now();
    this.stats = new RoomStats(now());
    this.deadline = new Deadline(now, () => this.mailbox.post({ kind: 'deadline' }));
    this.mailbox = new Mailbox<RoomMessage>({
      maxDepth: deps.mailboxDepth,
      isBounded: (m) => m.kind === 'command',
      batchKey: (m) => (m.kind === 'command' ? batchKindOf(m.command) : null),
      process: (batch) => this.process(batch),
      // Mailbox wait is latency, measured on the monotonic clock.
      onError: (err) => deps.log('error', 'room handler failed', { room: this.code, error: String(err) }),
      now: () => performance.now(),
    });
    this.afterChange();
  }

  get code(): string {
    return this.state.code;
  }

  get roomId(): string {
    return this.state.roomId;
  }

  get snapshot(): TriviaState {
    return this.state;
  }

  get mailboxDepth(): number {
    return this.mailbox.depth;
  }

  /** A batch is in hand or letters wait. */
  get isBusy(): boolean {
    return this.mailbox.busy;
  }

  get mailboxDepthMax(): number {
    return this.mailbox.depthMax;
  }

  /** A socket joins the audience; its first frame is the room as it may see it. */
  attach(viewer: Viewer): { ok: true } | { ok: false; closeCode: number; reason: string } {
    if (this.disposed || this.state.phase === 'closed') return { ok: false, closeCode: CloseCode.roomClosed, reason: 'room closed' };
    if (viewer.role === 'player' && !this.state.players.some((p) => p.id === viewer.playerId)) {
      return { ok: false, closeCode: CloseCode.seatGone, reason: 'seat left or was kicked' };
    }
    this.audience.add(viewer);
    this.cancelIdle();
    viewer.sendEvent('room.state', JSON.stringify(viewRoom(this.state, viewer, viewer.wire, this.deps.clock.now())));
    if (viewer.playerId) this.mailbox.post({ kind: 'presence', playerId: viewer.playerId });
    return { ok: true };
  }

  detach(viewer: Viewer): void {
    if (!this.audience.remove(viewer)) return;
    if (viewer.playerId && !this.disposed) this.mailbox.post({ kind: 'presence', playerId: viewer.playerId });
    this.scheduleIdle();
  }

  /**
   * One command from a socket. Its reply goes to the socket directly, in order with the events
   * the command causes (a `room.leave` reply comes before the 4003 close). Replays get their
   * original reply; shape and role are checked at once; the rest waits its turn in the mailbox.
   */
  submit(viewer: Viewer, frame: CommandFrame, arrival: Arrival): void {
    const seat = viewer.role === 'player' ? `p:${viewer.playerId}` : viewer.role === 'host' ? 'host' : `s:${viewer.socketId}`;
    if (this.replies.replay(seat, frame.id, (r) => viewer.sendReply(r))) return;
    this.replies.begin(seat, frame.id);
    const deliver = (reply: ReplyFrame) => {
      viewer.sendReply(reply);
      for (const resend of this.replies.settle(seat, frame.id, reply)) resend(reply);
    };
    let command;
    try {
      command = validateCommand(frame, viewer.role);
    } catch (err) {
      return deliver(this.refusal(frame.id, frame.type, err, arrival));
    }
    if (command.type === 'ping') {
      // Answered here, never through the mailbox: a ping does not wait behind the room's work.
      const reply = okReply(frame.id, { serverTime: this.deps.clock.now() });
      this.observe(frame.type, reply.status, arrival, 0, 0);
      return deliver(reply);
    }
    if (this.disposed || this.state.phase === 'closed') {
      return deliver(this.refusal(frame.id, frame.type, new RoomException(RoomErrorCode.RoomClosed, 'the room is closed'), arrival));
    }
    const posted = this.mailbox.post({ kind: 'command', viewer, command, arrival, reply: deliver });
    if (!posted) {
      deliver(this.refusal(frame.id, frame.type, new RoomException(RoomErrorCode.MailboxFull, 'the room is busy; retry shortly'), arrival));
    }
  }

  /** A command from an operator (the admin API), taken in turn like any other; resolves with its reply. */
  operatorCommand(command: RoomCommand): Promise<ReplyFrame> {
    return new Promise<ReplyFrame>((resolve) => {
      const arrival: Arrival = { at: this.deps.clock.now(), hr: performance.now() };
      const fail = (e: RoomException) => resolve(errorReply(command.id, e));
      if (this.disposed || this.state.phase === 'closed') return fail(new RoomException(RoomErrorCode.RoomClosed, 'the room is closed'));
      if (!this.mailbox.post({ kind: 'command', viewer: OPERATOR, command, arrival, reply: resolve })) {
        fail(new RoomException(RoomErrorCode.MailboxFull, 'the room is busy; retry shortly'));
      }
    });
  }

  /** A player takes a seat (HTTP join). Resolves once the seat is committed. */
  join(playerId: string, name: string): Promise<void> {
    if (this.disposed || this.state.phase === 'closed') return Promise.reject(new RoomException(RoomErrorCode.RoomClosed, 'the room is closed'));
    return new Promise<void>((resolve, reject) => {
      this.mailbox.post({ kind: 'join', playerId, name, done: (err) => (err ? reject(err) : resolve()) });
    });
  }

  /** The room was closed outside the actor (HTTP API, operator, another instance). */
  closedElsewhere(reason: string): void {
    this.mailbox.post({ kind: 'closed', reason });
  }

  private async process(batch: Letter<RoomMessage>[]): Promise<void> {
    const first = batch[0].message;
    switch (first.kind) {
      case 'command':
        return this.handleCommandsSafely(batch as Letter<CommandMessage>[]);
      case 'join':
        return this.handleJoin(first);
      case 'deadline':
        return this.handleSignal(() => onDeadline(this.state, this.deps.clock.now()), true);
      case 'presence':
        return this.handleSignal(() => {
          const connected = this.audience.isConnected(first.playerId);
          return setPresence(this.state, first.playerId, connected, this.deps.clock.now());
        }, false);
      case 'closed':
        return this.handleSignal(() => roomClosed(this.state, first.reason), false);
    }
  }

  /** Whatever goes wrong, every command in the batch still gets exactly one reply. */
  private async handleCommandsSafely(batch: Letter<CommandMessage>[]): Promise<void> {
    try {
      await this.handleCommands(batch);
    } catch (err) {
      const refusal = this.unavailable(err, batch.map((l) => l.message.command.type).join(','));
      for (const letter of batch) if (!this.answered.has(letter)) this.replyTo(letter, refusal, performance.now(), 0);
    }
  }

  /**
   * Commands that waited together: each is decided against the state its predecessors leave, all
   * their writes are committed in one statement, and only then does anyone hear of them.
   */
  private async handleCommands(batch: Letter<CommandMessage>[]): Promise<void> {
    const startedAt = performance.now();
    let state = this.state;
    const decided: { letter: (typeof batch)[number]; outcome?: Outcome; error?: unknown }[] = [];
    for (const letter of batch) {
      const m = letter.message;
      try {
        const outcome = decide(state, m.viewer, m.command, m.arrival.at);
        state = outcome.state;
        decided.push({ letter, outcome });
      } catch (error) {
        if (!(error instanceof RoomException)) throw error;
        decided.push({ letter, error });
      }
    }
    const writes = mergeWrites(decided.flatMap((d) => d.outcome?.writes ?? []));
    let results: CommitResult[];
    try {
      results = await this.commitAll(writes);
    } catch (err) {
      const unavailable = this.unavailable(err, batch[0].message.command.type);
      for (const d of decided) this.replyTo(d.letter, d.outcome ? unavailable : d.error, startedAt, 0);
      return;
    }

    let outcomes = decided.flatMap((d) => (d.outcome ? [d.outcome] : []));
    const started = results.find((r) => r.kind === 'startGame');
    if (started?.kind === 'startGame') {
      const write = writes.find((w): w is Extract<Write, { kind: 'startGame' }> => w.kind === 'startGame')!;
      if (!started.started) {
        // The room was closed under us; the close signal will follow through NOTIFY.
        for (const d of decided) this.replyTo(d.letter, new RoomException(RoomErrorCode.RoomClosed, 'the room is closed'), startedAt, 1);
        return;
      }
      const next = gameStarted(state, { ...started.started, gameNo: write.gameNo, roster: write.roster }, this.deps.clock.now());
      state = next.state;
      outcomes = [...outcomes, next];
    }
    this.state = state;
    for (const d of decided) this.replyTo(d.letter, d.outcome ? d.outcome.reply : d.error, startedAt, writes.length);
    this.publish(outcomes);
  }

  private async handleJoin(m: Extract<RoomMessage, { kind: 'join' }>): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = join(this.state, m.playerId, m.name);
      await this.commitAll(outcome.writes);
    } catch (err) {
      return m.done(err instanceof RoomException ? err : this.unavailable(err));
    }
    this.state = outcome.state;
    m.done();
    this.publish([outcome]);
  }

  /** A deadline, a presence change or an outside close. A failed write is retried shortly. */
  private async handleSignal(rule: () => Outcome, retryOnFailure: boolean): Promise<void> {
    const outcome = rule();
    try {
      await this.commitAll(outcome.writes);
    } catch (err) {
      this.deps.log('warn', 'room could not commit a timed change; retrying', { room: this.code, error: String(err) });
      if (retryOnFailure) this.deadline.set(this.deps.clock.now() + RETRY_AFTER_DB_FAILURE_MS);
      return;
    }
    this.state = outcome.state;
    this.publish([outcome]);
  }

  private async commitAll(writes: readonly Write[]): Promise<CommitResult[]> {
    const results: CommitResult[] = [];
    for (const write of writes) results.push(await this.deps.committer.commit(write));
    return results;
  }

  /** Events to everyone, fresh state where a client cannot derive it, then sockets to close. */
  private publish(outcomes: readonly Outcome[]): void {
    const now = this.deps.clock.now();
    for (const o of outcomes) for (const e of o.events) this.audience.broadcast(e.type, e.data);
    if (outcomes.some((o) => o.resync)) {
      for (const v of this.audience) v.sendEvent('room.state', JSON.stringify(viewRoom(this.state, v, v.wire, now)));
    }
    for (const o of outcomes) {
      for (const effect of o.effects) {
        if (effect.kind === 'release') {
          for (const playerId of effect.playerIds) {
            this.replies.forgetSeat(`p:${playerId}`);
            for (const v of this.audience.seatsOf(playerId)) {
              this.audience.remove(v);
              v.close(CloseCode.seatGone, 'seat released');
            }
          }
        } else {
          this.shutDown(CloseCode.roomClosed, `room closed: ${effect.reason}`);
        }
      }
    }
    this.afterChange();
  }

  private afterChange(): void {
    if (this.disposed) return;
    this.deadline.set(nextDeadline(this.state));
    this.scheduleIdle();
  }

  private replyTo(letter: Letter<CommandMessage>, result: unknown, startedAt: number, roundTrips: number): void {
    if (this.answered.has(letter)) return;
    this.answered.add(letter);
    const m = letter.message;
    const reply =
      result instanceof RoomException ? errorReply(m.command.id, result) : okReply(m.command.id, result ?? {});
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
    const ms = Math.max(0, performance.now() - arrival.hr);
    this.stats.record({ type, at: this.deps.clock.now(), mailboxWaitMs: waitMs, ms, status, roundTrips });
    this.deps.observer.command(type, status, ms / 1000, waitMs / 1000);
    if (statusClass(status) === '5xx') this.deps.log('warn', 'command refused with 503', { room: this.code, command: type });
  }

  private unavailable(err: unknown, command?: string): RoomException {
    if (!(err instanceof DatabaseUnavailableError)) {
      this.deps.log('error', 'command failed unexpectedly', { room: this.code, command, error: err instanceof Error ? err.stack : String(err) });
    }
    return new RoomException(RoomErrorCode.DatabaseUnavailable, 'the database is unavailable; nothing was recorded, retry later');
  }

  private scheduleIdle(): void {
    if (this.disposed || this.audience.size > 0 || this.idleTimer) return;
    const phase = this.state.phase;
    const rematchOpen = phase === 'finished' && this.state.rematch && !this.state.rematch.decided;
    if (phase === 'question' || phase === 'reveal' || rematchOpen) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.audience.size === 0 && !this.mailbox.busy && this.mailbox.depth === 0) {
        this.deps.log('info', 'room passivated', { room: this.code, phase: this.state.phase });
        this.dispose();
      }
    }, phase === 'closed' ? 0 : this.deps.passivateAfterMs);
    this.idleTimer.unref();
  }

  private cancelIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Closes every socket with `code`, answers whatever still waits, and leaves memory. */
  private shutDown(code: number, reason: string): void {
    for (const v of this.audience) v.close(code, reason);
    this.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.deadline.clear();
    this.cancelIdle();
    for (const m of this.mailbox.close()) {
      const closed = new RoomException(RoomErrorCode.RoomClosed, 'the room closed while the command waited');
      if (m.kind === 'command') m.reply(errorReply(m.command.id, closed));
      if (m.kind === 'join') m.done(closed);
    }
    this.deps.onDispose(this);
  }
}
