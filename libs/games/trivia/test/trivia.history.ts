// Random but plausible room histories for the property tests, played on the real rules the way
// RoomActor drives them: decide (a batch's writes merged), commit, afterCommit; deadlines fired
// with ctx.now = the moment they were due, each before any input stamped after it; refused
// commands write nothing. Time is explicit epoch ms, and never goes back.
import { CommandFrame, okReply, ReplyFrame, RoomException } from '@app/protocol';
import { Actor, Committed, Outcome, RoomEvent, RuleContext, seededRandom, Signal } from '@app/room-engine';
import fc from 'fast-check';
import { Answer, join, Question, Settings, TriviaResult, triviaRules, TriviaState, Write } from '../src';
import { TriviaDatabase } from './trivia.database.model';

export const T0 = 1_700_000_000_000;
export const EXPIRY_SECONDS = 300;
export const SEED = 7;

/** The questions table: more than a game needs, so a second game prefers unplayed ones. */
export const DECK: Question[] = [
  { id: 11, text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome', 'Madrid'], correct: 1 },
  { id: 12, text: '2 + 2?', choices: ['3', '5', '4'], correct: 2 },
  { id: 13, text: 'Largest ocean?', choices: ['Pacific', 'Atlantic'], correct: 0 },
  { id: 14, text: 'Red planet?', choices: ['Venus', 'Mars', 'Jupiter'], correct: 1 },
  { id: 15, text: 'H2O?', choices: ['Water', 'Salt', 'Air', 'Gold'], correct: 0 },
];

export const HOST: Actor = { role: 'host' };
export const asPlayer = (seat: string): Actor => ({ role: 'player', seat });

/** The replay memory's key, as RoomActor keys it. */
export const seatKey = (actor: Actor): string => (actor.role === 'player' ? `p:${actor.seat}` : 'host');

/** How far the clock moves before a step: a little, exactly to the next deadline, or past it. */
export type Wait = { readonly mode: 'same' | 'small' | 'atDeadline' | 'pastDeadline' | 'long'; readonly ms: number };

/** One step of a history, in the abstract; `play` turns it into what fits the room's phase. */
export interface Step {
  readonly wait: Wait;
  /** What kind of thing happens, 0-99: its meaning depends on the phase. */
  readonly pick: number;
  readonly who: number;
  readonly choice: number;
  readonly yes: boolean;
  /** How many answers or votes arrive together (decided together, one statement). */
  readonly together: number;
}

export interface Scenario {
  readonly settings: Settings;
  readonly players: number;
  readonly drawSeed: number;
  readonly steps: readonly Step[];
}

const waitArb: fc.Arbitrary<Wait> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ mode: fc.constant('same' as const), ms: fc.constant(0) }) },
  { weight: 60, arbitrary: fc.record({ mode: fc.constant('small' as const), ms: fc.integer({ min: 1, max: 6000 }) }) },
  { weight: 10, arbitrary: fc.record({ mode: fc.constant('atDeadline' as const), ms: fc.constant(0) }) },
  { weight: 10, arbitrary: fc.record({ mode: fc.constant('pastDeadline' as const), ms: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 6, arbitrary: fc.record({ mode: fc.constant('long' as const), ms: fc.integer({ min: 1, max: 60_000 }) }) },
  // Now and then long enough for an idle room to expire.
  { weight: 1, arbitrary: fc.record({ mode: fc.constant('long' as const), ms: fc.integer({ min: 60_000, max: EXPIRY_SECONDS * 1000 + 5000 }) }) },
);

export const stepArb: fc.Arbitrary<Step> = fc.record({
  wait: waitArb,
  pick: fc.nat(99),
  who: fc.nat(9),
  choice: fc.nat(4),
  yes: fc.boolean(),
  together: fc.integer({ min: 1, max: 3 }),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  settings: fc.record({
    deckId: fc.constant('deck-1'),
    questionCount: fc.integer({ min: 1, max: 3 }),
    secondsPerQuestion: fc.constantFrom(5, 10, 20),
    revealSeconds: fc.constantFrom(2, 4),
    maxPlayers: fc.constant(5),
    minPlayers: fc.integer({ min: 1, max: 3 }),
    // restoreTrivia's fixed rematch window, and the server's expiry.
    rematchSeconds: fc.constant(30),
    expirySeconds: fc.constant(EXPIRY_SECONDS),
  }),
  players: fc.integer({ min: 1, max: 5 }),
  drawSeed: fc.nat(),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 80, size: 'medium' }),
});

/** A command the rules accepted, and the reply its sender got. */
export interface Acknowledged {
  readonly actor: Actor;
  readonly frame: CommandFrame;
  readonly reply: ReplyFrame;
  /** Its place among the room's accepted commands. */
  readonly seq: number;
}

/** One room played live: the rules' state, the database's, and what everyone was told. */
export class LiveRoom {
  state: TriviaState;
  now = T0;
  readonly db: TriviaDatabase;
  /** Every committed statement, in order, with the moment it was committed. */
  readonly committed: { write: Write; at: number }[] = [];
  /** Every event sent, in order. */
  readonly events: RoomEvent[] = [];
  /** Accepted commands, by the replay memory's key; a released seat's are forgotten, as the actor does. */
  readonly acks = new Map<string, Map<string, Acknowledged>>();
  /** Every answer the rules accepted (with its game). */
  readonly answers: { gameId: string; answer: Answer }[] = [];
  /** Seats that left, were kicked or were released. */
  readonly released = new Set<string>();
  /** The place of the start command of the game played last (see Acknowledged.seq). */
  lastStartSeq?: number;
  private acknowledged = 0;
  private nextPlayer = 1;
  private nextCommand = 1;
  /** The last input that committed something: when, and whose. */
  private lastInput?: { at: number; subject: string };

  constructor(readonly scenario: Scenario) {
    const settings = scenario.settings;
    this.state = {
      roomId: 'room-1',
      code: 'ABCDEF',
      hostName: 'Quizmaster',
      phase: 'lobby',
      settings,
      players: [],
      gamesPlayed: 0,
      expiresAt: T0 + settings.expirySeconds * 1000,
      playedQuestionIds: [],
    };
    this.db = new TriviaDatabase({ id: this.state.roomId, code: this.state.code, hostName: this.state.hostName, settings }, T0, DECK, seededRandom(scenario.drawSeed, 0));
  }

  get over(): boolean {
    return triviaRules.isOver(this.state);
  }

  /** Plays the scenario's first `count` steps. */
  playSteps(count: number): this {
    for (const step of this.scenario.steps.slice(0, count)) {
      if (this.over) break;
      this.play(step);
    }
    return this;
  }

  /**
   * The clock reaches `t`: every deadline due before then fires, each at the moment it was due.
   * One due at `t` itself waits: the actor's timer rings once its millisecond has passed, and an
   * input stamped `t` goes first (RoomActor takes overdue deadlines before any input).
   */
  advanceTo(t: number): void {
    for (let i = 0; i < 100; i++) {
      const due = triviaRules.nextDeadline(this.state);
      if (due === undefined || due >= t) break;
      const before = this.state;
      this.signal({ kind: 'deadline' }, due);
      if (this.state === before) break;
    }
    this.now = Math.max(this.now, t);
  }

  play(step: Step): void {
    this.advanceTo(this.target(step.wait));
    if (this.over) return;
    const s = this.state;
    const seats = s.players;
    const pickSeat = (n = step.who) => (seats.length ? seats[n % seats.length] : undefined);
    const p = step.pick;
    switch (s.phase) {
      case 'lobby':
        if (p < 45 && seats.length < this.scenario.players) return this.join(step.yes || p < 35);
        if (p < 70) return this.command(HOST, 'room.start', {});
        if (p < 80) return this.presence(pickSeat()?.id, !pickSeat()?.connected);
        if (p < 85) return this.leave(pickSeat()?.id);
        if (p < 90) return this.kick(pickSeat()?.id);
        if (p < 95) return this.join(true);
        return;
      case 'question': {
        if (p < 55) {
          const game = s.game!;
          const waiting = game.roster.filter((id) => !game.answers[id]);
          const answerers = Array.from({ length: step.together }, (_, i) => waiting[(step.who + i) % Math.max(waiting.length, 1)] ?? pickSeat()?.id);
          // A choice past the last one now and then: refused, it writes nothing.
          const choices = game.questions[game.index].choices.length;
          return this.batch(
            [...new Set(answerers)].flatMap((id, i) => (id ? [{ actor: asPlayer(id), type: 'room.answer', data: { question: game.index, choice: (step.choice + i) % (choices + 1) } }] : [])),
          );
        }
        if (p < 75) return this.presence(pickSeat()?.id, !pickSeat()?.connected);
        if (p < 82) return this.leave(pickSeat()?.id);
        if (p < 88) return this.kick(pickSeat()?.id);
        if (p < 92) return this.command(asPlayer(pickSeat()?.id ?? 'nobody'), 'room.answer', { question: s.game!.index + 1, choice: 0 });
        return;
      }
      case 'reveal':
        if (p < 30) return this.presence(pickSeat()?.id, !pickSeat()?.connected);
        if (p < 37) return this.leave(pickSeat()?.id);
        if (p < 42) return this.kick(pickSeat()?.id);
        if (p < 50) return this.command(asPlayer(pickSeat()?.id ?? 'nobody'), 'room.answer', { question: s.game!.index, choice: 0 });
        return;
      case 'finished':
        if (p < 55) {
          const voters = Array.from({ length: step.together }, (_, i) => pickSeat(step.who + i)?.id);
          return this.batch([...new Set(voters)].flatMap((id, i) => (id ? [{ actor: asPlayer(id), type: 'room.rematch', data: { vote: step.yes || (step.choice + i) % 3 !== 0 } }] : [])));
        }
        if (p < 65) return this.presence(pickSeat()?.id, !pickSeat()?.connected);
        if (p < 72) return this.leave(pickSeat()?.id);
        if (p < 78) return this.kick(pickSeat()?.id);
        if (p < 82) return this.command(HOST, 'room.start', {});
        return;
      case 'closed':
        return;
    }
  }

  private target(wait: Wait): number {
    // Only a long wait lets an idle room expire: histories should mostly play.
    const s = this.state;
    const expiring = s.phase === 'lobby' || (s.phase === 'finished' && (!s.rematch || s.rematch.decided !== undefined || s.expiresAt <= s.rematch.closesAt));
    const due = expiring ? undefined : triviaRules.nextDeadline(s);
    switch (wait.mode) {
      case 'same':
        return this.now;
      case 'small':
        return this.now + wait.ms;
      case 'atDeadline':
        return due !== undefined && due > this.now ? due : this.now;
      case 'pastDeadline':
        return due !== undefined && due > this.now ? due + wait.ms : this.now + wait.ms;
      case 'long':
        return this.now + wait.ms;
    }
  }

  private ctx(now: number): RuleContext {
    return { now, random: seededRandom(SEED, now) };
  }

  /**
   * The record keeps each input's millisecond, not the order of two in the same one: two seats'
   * inputs in one millisecond replay in a fixed order (restoreTrivia's ORDER, then the seats'),
   * which is not always the live one (a rematch decided before or after the second departure, a
   * reveal with or without the leaver). So a history moves the clock on by 1 ms between inputs of
   * different seats; one seat's inputs, a batch, and an input and a deadline may still share one.
   */
  private turnOf(subject: string): void {
    if (this.lastInput && this.lastInput.at === this.now && this.lastInput.subject !== subject) this.advanceTo(this.now + 1);
  }

  private committedInput(subject: string, writes: readonly Write[]): void {
    if (writes.length > 0) this.lastInput = { at: this.now, subject };
  }

  private join(connect: boolean): void {
    const id = `p${this.nextPlayer++}`;
    this.turnOf(id);
    let outcome: Outcome<TriviaState, Write>;
    try {
      outcome = join(this.state, id, `Name ${id}`);
    } catch (err) {
      if (err instanceof RoomException) return;
      throw err;
    }
    this.commit(outcome.writes, this.now);
    this.committedInput(id, outcome.writes);
    this.apply(outcome);
    if (connect) this.presence(id, true);
  }

  private presence(seat: string | undefined, connected: boolean): void {
    if (!seat) return;
    this.turnOf(seat);
    this.committedInput(seat, this.signal({ kind: 'presence', seat, connected }, this.now));
  }

  private leave(seat: string | undefined): void {
    if (seat) this.command(asPlayer(seat), 'room.leave', {});
  }

  private kick(seat: string | undefined): void {
    if (seat) this.command(HOST, 'room.kick', { playerId: seat });
  }

  private command(actor: Actor, type: string, data: unknown): void {
    this.batch([{ actor, type, data }]);
  }

  /** Commands that waited together, as RoomActor.handleCommands takes them. */
  private batch(commands: { actor: Actor; type: string; data: unknown }[]): void {
    if (commands.length === 0) return;
    // Whose input it is: a kick's is the kicked seat's departure, a start the host's.
    const subject = commands.map((c) => (c.type === 'room.kick' ? (c.data as { playerId: string }).playerId : (c.actor.seat ?? 'host'))).join(',');
    this.turnOf(subject);
    let state = this.state;
    const decided: { actor: Actor; frame: CommandFrame; outcome: Outcome<TriviaState, Write> }[] = [];
    for (const c of commands) {
      const frame: CommandFrame = { id: `c${this.nextCommand++}`, type: c.type, data: c.data };
      try {
        const outcome = triviaRules.decide(state, c.actor, triviaRules.parseCommand(frame, c.actor.role), this.ctx(this.now));
        state = outcome.state;
        decided.push({ actor: c.actor, frame, outcome });
      } catch (err) {
        if (!(err instanceof RoomException)) throw err;
      }
    }
    const writes = triviaRules.mergeWrites(decided.flatMap((d) => d.outcome.writes));
    const committed = this.commit(writes, this.now);
    this.committedInput(subject, writes);
    let outcomes = decided.map((d) => d.outcome);
    const follow = committed.length ? triviaRules.afterCommit?.(state, committed, this.ctx(this.now)) : undefined;
    if (follow) outcomes = [...outcomes, follow];
    for (const d of decided) {
      const key = seatKey(d.actor);
      if (!this.acks.has(key)) this.acks.set(key, new Map());
      const seq = this.acknowledged++;
      this.acks.get(key)!.set(d.frame.id, { actor: d.actor, frame: d.frame, reply: okReply(d.frame.id, d.outcome.reply ?? {}), seq });
      if (follow && d.frame.type === 'room.start') this.lastStartSeq = seq;
      for (const w of d.outcome.writes) if (w.kind === 'recordAnswers') for (const a of w.answers) this.answers.push({ gameId: w.gameId, answer: a });
    }
    this.state = follow ? follow.state : state;
    for (const o of outcomes) this.effects(o);
  }

  private signal(signal: Signal, at: number): readonly Write[] {
    const outcome = triviaRules.onSignal(this.state, signal, this.ctx(at));
    this.commit(outcome.writes, at);
    this.apply(outcome);
    return outcome.writes;
  }

  private commit(writes: readonly Write[], at: number): Committed<Write, TriviaResult>[] {
    const results = this.db.commit(writes, at);
    writes.forEach((write) => this.committed.push({ write, at }));
    return writes.map((write, i) => ({ write, result: results[i] }));
  }

  private apply(outcome: Outcome<TriviaState, Write>): void {
    this.state = outcome.state;
    this.effects(outcome);
  }

  private effects(outcome: Outcome<TriviaState, Write>): void {
    this.events.push(...outcome.events);
    for (const e of outcome.effects) {
      if (e.kind !== 'release') continue;
      for (const seat of e.seats) {
        this.released.add(seat);
        // The actor forgets a released seat's replies (its sockets are closed for good).
        this.acks.delete(seatKey(asPlayer(seat)));
      }
    }
  }
}
