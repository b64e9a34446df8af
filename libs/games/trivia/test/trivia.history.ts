// This file makes random but plausible room histories for the property tests. They are played on
// the real rules the way the engine drives them, and journaled the way the engine journals them
// (JournaledRoom). Deadlines fire at the moments they were due, each before any input stamped after
// it. Refused commands change nothing. Now and then the process dies and the room comes back from
// its journal, or the room's writes fail for a while and its clocks hold. Time is explicit epoch ms,
// and it never goes back.
import { RoomException } from '@app/protocol';
import { Actor, RoomEvent } from '@app/room-engine';
import fc from 'fast-check';
import { JournaledRoom } from '../../test/journaled-room';
import { Answer, ChoiceQuestion, GameSummary, openTrivia, RoomCommand, Settings, triviaRules, TriviaState } from '../src';
import { answerOf } from '../src/trivia.rules';

export const T0 = 1_700_000_000_000;
export const EXPIRY_SECONDS = 300;
export const SEED = 7;

/** The room's deck. It has more questions than a game needs, so that a second game prefers unplayed ones. */
export const DECK: ChoiceQuestion[] = [
  { id: 11, text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome', 'Madrid'], correct: 1 },
  { id: 12, text: '2 + 2?', choices: ['3', '5', '4'], correct: 2 },
  { id: 13, text: 'Largest ocean?', choices: ['Pacific', 'Atlantic'], correct: 0 },
  { id: 14, text: 'Red planet?', choices: ['Venus', 'Mars', 'Jupiter'], correct: 1 },
  { id: 15, text: 'H2O?', choices: ['Water', 'Salt', 'Air', 'Gold'], correct: 0 },
];

export const HOST: Actor = { role: 'host' };
export const asPlayer = (seat: string): Actor => ({ role: 'player', seat });

/** How far the clock moves before a step: a little, exactly to the next deadline, or past it. */
export type Wait = { readonly mode: 'same' | 'small' | 'atDeadline' | 'pastDeadline' | 'long'; readonly ms: number };

/** One step of a history, in the abstract. `play` turns it into what fits the room's phase. */
export interface Step {
  readonly wait: Wait;
  /** What kind of thing happens, from 0 to 99. Its meaning depends on the phase. */
  readonly pick: number;
  readonly who: number;
  readonly choice: number;
  readonly yes: boolean;
  /** How many answers or votes arrive together. They are decided together, in one statement. */
  readonly together: number;
  /** The process dies before this step and the room comes back this many ms later. */
  readonly restartAfterMs: number | null;
  /** The room's writes fail for this many ms from the end of this step's wait, so its clocks hold. */
  readonly holdMs: number | null;
}

export interface Scenario {
  readonly settings: Settings;
  readonly players: number;
  readonly steps: readonly Step[];
}

const waitArb: fc.Arbitrary<Wait> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ mode: fc.constant('same' as const), ms: fc.constant(0) }) },
  { weight: 60, arbitrary: fc.record({ mode: fc.constant('small' as const), ms: fc.integer({ min: 1, max: 6000 }) }) },
  { weight: 10, arbitrary: fc.record({ mode: fc.constant('atDeadline' as const), ms: fc.constant(0) }) },
  { weight: 10, arbitrary: fc.record({ mode: fc.constant('pastDeadline' as const), ms: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 6, arbitrary: fc.record({ mode: fc.constant('long' as const), ms: fc.integer({ min: 1, max: 60_000 }) }) },
  // Now and then the wait is long enough for an idle room to expire.
  {
    weight: 1,
    arbitrary: fc.record({ mode: fc.constant('long' as const), ms: fc.integer({ min: 60_000, max: EXPIRY_SECONDS * 1000 + 5000 }) }),
  },
);

export const stepArb: fc.Arbitrary<Step> = fc.record({
  wait: waitArb,
  pick: fc.nat(99),
  who: fc.nat(9),
  choice: fc.nat(4),
  yes: fc.boolean(),
  together: fc.integer({ min: 1, max: 3 }),
  restartAfterMs: fc.oneof({ weight: 24, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 40_000 }) }),
  holdMs: fc.oneof({ weight: 16, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 60_000 }) }),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  settings: fc.record({
    deckId: fc.constant('deck-1'),
    questionCount: fc.integer({ min: 1, max: 3 }),
    secondsPerQuestion: fc.constantFrom(5, 10, 20),
    revealSeconds: fc.constantFrom(2, 4),
    maxPlayers: fc.constant(5),
    minPlayers: fc.integer({ min: 1, max: 3 }),
    rematchSeconds: fc.constant(30),
    expirySeconds: fc.constant(EXPIRY_SECONDS),
  }),
  players: fc.integer({ min: 1, max: 5 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 80, size: 'medium' }),
});

/** One room played live: the rules' state, its journal, and what everyone was told. */
export class LiveRoom {
  readonly room: JournaledRoom<TriviaState, RoomCommand>;
  /** Every event sent, in order. */
  readonly events: RoomEvent[] = [];
  /** Every answer the rules accepted (with its game). */
  readonly answers: { gameId: string; answer: Answer }[] = [];
  /** Seats that left, were kicked or were released. */
  readonly released = new Set<string>();
  /** What each finished game reported, in order. */
  readonly summaries: GameSummary[] = [];
  /** Each hold of the clocks: how long, and the room's phase and next deadline before and after it. */
  readonly holds: { ms: number; before: { phase: string; due?: number }; after: { phase: string; due?: number } }[] = [];
  private nextPlayer = 1;
  private nextCommand = 1;

  constructor(readonly scenario: Scenario) {
    const opening = openTrivia({
      roomId: 'room-1',
      code: 'ABCDEF',
      hostName: 'Quizmaster',
      settings: scenario.settings,
      deck: DECK,
      openedAt: T0,
    });
    this.room = new JournaledRoom(triviaRules, SEED, opening, T0, (outcome) => {
      this.events.push(...outcome.events);
      for (const e of outcome.effects) if (e.kind === 'release') for (const seat of e.seats) this.released.add(seat);
      if (outcome.finished) this.summaries.push(outcome.finished.summary as GameSummary);
    });
  }

  get state(): TriviaState {
    return this.room.state;
  }

  get now(): number {
    return this.room.now;
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

  play(step: Step): void {
    if (step.restartAfterMs !== null) return this.room.restart(this.now, this.now + step.restartAfterMs);
    this.room.advanceTo(this.target(step.wait));
    if (this.over) return;
    if (step.holdMs !== null) return this.hold(step.holdMs);
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
          const waiting = game.roster.filter((id) => !answerOf(game, id));
          const answerers = Array.from(
            { length: step.together },
            (_, i) => waiting[(step.who + i) % Math.max(waiting.length, 1)] ?? pickSeat()?.id,
          );
          // Now and then the choice is past the last one. It is refused and changes nothing.
          const open = game.questions[game.index];
          const choices = 'choices' in open ? open.choices.length : 0;
          return this.batch(
            [...new Set(answerers)].flatMap((id, i) =>
              id
                ? [{ actor: asPlayer(id), type: 'room.answer', data: { question: game.index, choice: (step.choice + i) % (choices + 1) } }]
                : [],
            ),
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
          return this.batch(
            [...new Set(voters)].flatMap((id, i) =>
              id ? [{ actor: asPlayer(id), type: 'room.rematch', data: { vote: step.yes || (step.choice + i) % 3 !== 0 } }] : [],
            ),
          );
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
    // Only a long wait lets an idle room expire, because histories should mostly play.
    const s = this.state;
    const expiring =
      s.phase === 'lobby' ||
      (s.phase === 'finished' && (!s.rematch || s.rematch.decided !== undefined || s.expiresAt <= s.rematch.closesAt));
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

  /** Makes the room's writes fail for `ms` from now. Its clocks hold, and move on when a write succeeds. */
  private hold(ms: number): void {
    const seen = () => ({ phase: this.state.phase, due: triviaRules.nextDeadline(this.state) });
    const before = seen();
    this.room.hold(this.now, ms);
    this.holds.push({ ms, before, after: seen() });
  }

  /** Seats a player by name as over HTTP (the join proposal). With `connect`, the seat's socket opens at once. */
  private join(connect: boolean): void {
    const id = `p${this.nextPlayer++}`;
    const joined = this.room.proposal('join', { playerId: id, name: `Name ${id}` });
    if (!(joined instanceof RoomException) && connect) this.presence(id, true);
  }

  private presence(seat: string | undefined, connected: boolean): void {
    if (seat) this.room.signal({ kind: 'presence', seat, connected });
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

  /** Decides commands that waited together. Each is decided against the state the one before it left. */
  private batch(commands: { actor: Actor; type: string; data: unknown }[]): void {
    for (const c of commands) {
      const command = triviaRules.parseCommand({ id: `c${this.nextCommand++}`, type: c.type, data: c.data }, c.actor.role);
      const decided = this.room.command(c.actor, command);
      if (decided instanceof RoomException || command.type !== 'room.answer') continue;
      const game = decided.state.game!;
      this.answers.push({ gameId: game.id, answer: answerOf(game, c.actor.seat!)! });
    }
  }
}
