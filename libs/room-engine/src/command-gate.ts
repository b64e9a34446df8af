import {
  clip,
  CommandFrame,
  errorReply,
  okReply,
  PING,
  ReplyFrame,
  RoomErrorCode,
  RoomException,
  Status,
  statusClass,
} from '@app/protocol';
import { Viewer } from './audience';
import { Clock } from './clock';
import { Actor } from './game-rules';
import { Letter, Mailbox } from './mailbox';
import { ReplyMemory, seatKey } from './reply-memory';
import { Arrival, Command, CommandMessage, Message } from './room-message';
import { RefusalHook, refusedCommand } from './refused-command';
import { RoomStats } from './room-stats';
import { StoreUnavailableError } from './room-store';
import { RuleDriver } from './rule-driver';
import { Scheduler } from './scheduler';

/** What a room reports about each command it handles. */
export interface CommandObserver {
  command(type: string, status: number, seconds: number, mailboxWaitSeconds: number): void;
}

const OPERATOR: Actor = { role: 'host' };

export interface CommandGateDeps<S, C extends Command> {
  readonly code: string;
  readonly driver: RuleDriver<S, C>;
  readonly mailbox: Mailbox<Message<C>>;
  /** The steps in flight, and the two states in which a refusal must hold for it to be certain. */
  readonly pipeline: { readonly inFlight: number; readonly state: S; readonly confirmed: S };
  /** Why the room takes no command now (draining, gone, over), or undefined when it takes them. */
  readonly notLive: () => RoomException | undefined;
  readonly replies: ReplyMemory;
  readonly stats: RoomStats;
  readonly observer: CommandObserver;
  /** Hears of every refusal the room answers, and records it for operators off the answer path. */
  readonly refused?: RefusalHook;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** The moment at which the room decides a command that arrived at `at` (clock-hold.ts). Without it, that is `at` itself. */
  readonly moment?: (at: number) => number;
  readonly log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * The room's door for commands. It holds the checks a command meets before the rules decide it,
 * and it is the one place where each reply is sent, once, and observed. The checks run in this
 * order: a ping is answered at once; a resent id gets its first reply; then the type, the role
 * and the shape are checked (404, 403, 400); then a room that takes nothing refuses (503
 * shutting_down, 409 room_closed); then comes a refusal that is certain whatever the statements in
 * flight do; then a full mailbox (503 mailbox_full). A command that passes them all waits its turn
 * in the mailbox. Operator commands and proposals (changes asked for over HTTP) come in through
 * the gate too.
 */
export class CommandGate<S, C extends Command> {
  /** The server's vocabulary. A command is observed under one of these labels and no other. */
  private readonly known: ReadonlySet<string>;
  /** Letters already replied to, so that a reply is sent once, whatever happens after. */
  private readonly answered = new WeakSet<object>();

  constructor(private readonly deps: CommandGateDeps<S, C>) {
    this.known = new Set([...deps.driver.rules.commandTypes, PING]);
  }

  /**
   * Takes one command from a socket. Its reply goes to the socket either now, or once the rules
   * have decided the command and it has committed.
   */
  submit(viewer: Viewer, frame: CommandFrame, arrival: Arrival): void {
    if (frame.type === PING) {
      // A ping never goes through the mailbox, so it does not wait behind the room's work. Its
      // reply is not remembered either: it is the same whenever it is asked, so a resent ping
      // just gets a fresh one.
      const reply = okReply(frame.id, { serverTime: this.deps.clock.now() });
      this.observe(frame.type, reply.status, arrival, 0, 0);
      return viewer.sendReply(reply);
    }
    const { replies } = this.deps;
    const seat = seatKey(viewer, viewer.socketId);
    if (replies.replay(seat, frame.id, (r) => viewer.sendReply(r))) return;
    replies.begin(seat, frame.id);
    const deliver = (reply: ReplyFrame) => {
      viewer.sendReply(reply);
      for (const resend of replies.settle(seat, frame.id, reply)) resend(reply);
    };
    let command: C;
    try {
      command = this.deps.driver.rules.parseCommand(frame, viewer.role);
    } catch (err) {
      return deliver(this.refusal(frame.id, frame.type, err, arrival, viewer));
    }
    const closed = this.deps.notLive();
    if (closed) return deliver(this.refusal(frame.id, frame.type, closed, arrival, viewer));
    // Make the letter before asking the rules, so that what they say of it now is kept with it.
    const message: CommandMessage<C> = { kind: 'command', viewer, command, arrival, reply: deliver };
    const certain = this.certainRefusal(message);
    if (certain) return deliver(this.refusal(frame.id, frame.type, certain, arrival, viewer));
    if (!this.deps.mailbox.post(message)) {
      deliver(this.refusal(frame.id, frame.type, mailboxFull(), arrival, viewer));
    }
  }

  /** Takes a command from an operator in turn like any other, and resolves with its reply. */
  operatorCommand(frame: CommandFrame): Promise<ReplyFrame> {
    return new Promise<ReplyFrame>((resolve) => {
      const arrival = this.arrivalNow();
      let command: C;
      try {
        command = this.deps.driver.rules.parseCommand(frame, OPERATOR.role);
      } catch (err) {
        return resolve(this.refusal(frame.id, frame.type, err, arrival, OPERATOR));
      }
      const closed = this.deps.notLive();
      if (closed) return resolve(this.told(errorReply(frame.id, closed), OPERATOR, frame.type, arrival));
      // The journal records an operator's command as the host's, so a room rebuilt from the
      // journal remembers its reply under the host's seat. The live room does the same.
      const reply = (r: ReplyFrame) => {
        if (r.status === Status.ok) this.deps.replies.remember(seatKey(OPERATOR), r);
        resolve(r);
      };
      if (!this.deps.mailbox.post({ kind: 'command', viewer: OPERATOR, command, arrival, reply })) {
        resolve(this.told(errorReply(frame.id, mailboxFull()), OPERATOR, frame.type, arrival));
      }
    });
  }

  /**
   * Takes in turn a change that arrived outside the socket protocol, and resolves with the rule's
   * reply once the change is committed.
   */
  propose(name: string, args: unknown): Promise<unknown> {
    const closed = this.deps.notLive();
    if (closed) return Promise.reject(closed);
    return new Promise((resolve, reject) => {
      const done = (err: unknown, reply?: unknown) => (err ? reject(err) : resolve(reply));
      if (!this.deps.mailbox.post({ kind: 'proposal', name, args, arrival: this.arrivalNow(), done })) reject(mailboxFull());
    });
  }

  /** Closes the door because the room closed. The mailbox takes nothing more, and whatever still waits in it gets 409 room_closed. */
  close(): void {
    for (const m of this.deps.mailbox.close()) {
      const closed = new RoomException(RoomErrorCode.RoomClosed, 'the room closed while the command waited');
      if (m.kind === 'command') m.reply(this.told(errorReply(m.command.id, closed), m.viewer, m.command.type, m.arrival));
      if (m.kind === 'proposal') m.done(closed);
    }
  }

  /** Answers now the commands at the head of the mailbox that the statement just sent cannot make acceptable. */
  refuseWaiting(): void {
    this.deps.mailbox.settleLeading((l) => this.settleIfRefused(l.message));
  }

  /** Replies to a letter the room took, and observes it. It replies once; a second reply is dropped. */
  replyTo(letter: Letter<CommandMessage<C>>, result: unknown, startedAt: number, roundTrips: number): void {
    if (this.answered.has(letter)) return;
    this.answered.add(letter);
    const m = letter.message;
    const reply = result instanceof RoomException ? errorReply(m.command.id, result) : okReply(m.command.id, result ?? {});
    m.reply(reply);
    this.told(reply, m.viewer, m.command.type, m.arrival);
    const waitMs = Math.max(0, startedAt - letter.enqueuedAt);
    this.observe(m.command.type, reply.status, m.arrival, waitMs, roundTrips);
  }

  /** Turns anything that is not the rules' refusal into a 503. It logs any error that is not the store's outage. */
  unavailable(err: unknown, command?: string): RoomException {
    if (!(err instanceof StoreUnavailableError)) {
      this.deps.log('error', 'command failed unexpectedly', {
        room: this.deps.code,
        command,
        error: err instanceof Error ? err.stack : String(err),
      });
    }
    return new RoomException(RoomErrorCode.DatabaseUnavailable, 'the database is unavailable; nothing was recorded, retry later');
  }

  /**
   * While a statement is out and nothing else waits, a command may be refused both by the state
   * before that statement and by the state it will leave. Such a command is refused now: it needs
   * no database, so it need not wait for it. The rules are asked at the moment the room would
   * decide the command in its turn, so that when its turn comes on the same state, their verdict
   * is reused rather than decided afresh (verdicts.ts).
   */
  private certainRefusal(m: CommandMessage<C>, ahead = this.deps.mailbox.depth): RoomException | undefined {
    const { pipeline, driver } = this.deps;
    if (pipeline.inFlight === 0 || ahead > 0) return undefined;
    const at = this.deps.moment?.(m.arrival.at) ?? m.arrival.at;
    const after = driver.refusal(pipeline.state, m, at);
    return after && driver.refusal(pipeline.confirmed, m, at) ? after : undefined;
  }

  /** Answers a waiting command at the head of the mailbox now, if it is refused either way. */
  private settleIfRefused(m: Message<C>): boolean {
    if (m.kind !== 'command') return false;
    const refusal = this.certainRefusal(m, 0);
    if (!refusal) return false;
    const reply = errorReply(m.command.id, refusal);
    m.reply(reply);
    this.told(reply, m.viewer, m.command.type, m.arrival);
    this.observe(m.command.type, reply.status, m.arrival, 0, 0);
    return true;
  }

  /** The current moment, on both clocks. */
  private arrivalNow(): Arrival {
    return { at: this.deps.clock.now(), hr: this.deps.scheduler.now() };
  }

  private refusal(id: string, type: string, err: unknown, arrival: Arrival, actor: Actor): ReplyFrame {
    const error = err instanceof RoomException ? err : this.unavailable(err);
    const reply = errorReply(id, error);
    this.observe(type, reply.status, arrival, 0, 0);
    return this.told(reply, actor, type, arrival);
  }

  /**
   * Reports a refusal that was answered before the room saw the command (the socket's rate, a
   * draining server), the same way as the room's own refusals.
   */
  refusedBefore(actor: Actor, type: string, error: RoomException, at: number): void {
    this.told(errorReply(null, error), actor, type, { at, hr: 0 });
  }

  /** Tells the refusal hook about a refused command, and returns the reply for the caller to send. */
  private told(reply: ReplyFrame, actor: Actor, type: string, arrival: Arrival): ReplyFrame {
    const { refused } = this.deps;
    if (!refused || !reply.error) return reply;
    const by = actor === OPERATOR ? 'operator' : actor.role;
    refused(
      refusedCommand(arrival.at, by, actor.seat, type, { code: reply.error.code, status: reply.status, message: reply.error.message }),
    );
    return reply;
  }

  /**
   * Takes one measurement and gives it to two readers, so that the admin API's last commands and
   * the metrics agree exactly.
   */
  private observe(type: string, status: number, arrival: Arrival, waitMs: number, roundTrips: number): void {
    // Labels come from the server's vocabulary only, so a client cannot grow /metrics or the console.
    const label = this.known.has(type) ? type : 'unknown';
    const ms = Math.max(0, this.deps.scheduler.now() - arrival.hr);
    this.deps.stats.record({ type: label, at: this.deps.clock.now(), mailboxWaitMs: waitMs, ms, status, roundTrips });
    this.deps.observer.command(label, status, ms / 1000, waitMs / 1000);
    if (statusClass(status) === '5xx') this.deps.log('warn', 'command refused with 503', { room: this.deps.code, command: clip(label) });
  }
}

function mailboxFull(): RoomException {
  return new RoomException(RoomErrorCode.MailboxFull, 'the room is busy; retry shortly');
}
