import fc from 'fast-check';
import { RoomException } from '@app/protocol';
import { Actor, isInAudience, Outcome, RuleContext, seededRandom, unguessableIds } from '@app/room-engine';
import { KINDS_DECK, otherAnswers, TYPED } from '../test/trivia.kinds-deck';
import { triviaGame } from './trivia.game';
import { DeckQuestion } from './trivia.opening';
import { TriviaState } from './trivia.types';

// These tests check privacy with question kinds (PROTOCOL.md sections 3 and 13) over every frame to
// every seat. The rules are played as the engine drives them: each event goes to its audience, and
// each viewer gets the whole room as it may see it after every step. The histories are random, on a
// deck with every kind, at the clock's pace and the host's, with late arrivals.
//
// To check what no frame may tell, the test changes it. The same history is played again with the
// right answer of one question changed, and every other player's answer to that question changed
// too (a choice for another, a typed text for another). Until that question's reveal, a viewer's
// frames must be the same, byte for byte. Then none of them told the viewer the right answer or
// another player's answer.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const T0 = 1_700_000_000_000;
const rules = triviaGame.rules;
const SEATS = ['p1', 'p2', 'p3', 'p4'];
const VIEWERS: Actor[] = [{ role: 'host' }, { role: 'spectator' }, ...SEATS.map((seat): Actor => ({ role: 'player', seat }))];
const nameOf = (v: Actor) => v.seat ?? v.role;

type Step =
  | { readonly kind: 'join'; readonly seat: number }
  | { readonly kind: 'presence'; readonly seat: number; readonly on: boolean }
  | { readonly kind: 'start' }
  | { readonly kind: 'answer'; readonly seat: number; readonly field: number; readonly pick: number; readonly picks: readonly number[] }
  | { readonly kind: 'next' }
  | { readonly kind: 'leave'; readonly seat: number }
  | { readonly kind: 'rematch'; readonly seat: number; readonly yes: boolean };

interface History {
  readonly pace: 'clock' | 'host';
  readonly order: 'deck' | 'shuffled';
  readonly lateJoin: boolean;
  readonly steps: readonly { readonly after: number; readonly step: Step }[];
}

const seat = fc.nat(SEATS.length - 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('join' as const), seat }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('presence' as const), seat, on: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('start' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      seat,
      field: fc.nat(9),
      pick: fc.nat(5),
      picks: fc.uniqueArray(fc.nat(4), { minLength: 1, maxLength: 4 }),
    }),
    weight: 8,
  },
  { arbitrary: fc.record({ kind: fc.constant('next' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('leave' as const), seat }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('rematch' as const), seat, yes: fc.boolean() }), weight: 1 },
);
const history: fc.Arbitrary<History> = fc.record({
  pace: fc.constantFrom('clock' as const, 'host' as const),
  order: fc.constantFrom('deck' as const, 'shuffled' as const),
  lateJoin: fc.boolean(),
  steps: fc.array(fc.record({ after: fc.oneof(fc.nat(50), fc.nat(12_000)), step }), { maxLength: 120 }),
});

/**
 * Three players are seated and connected, and the game is started. The random steps come after
 * this, and more players may join late.
 */
const PRELUDE: History['steps'] = [
  ...[0, 1, 2].flatMap((seat) => [
    { after: 10, step: { kind: 'join' as const, seat } },
    { after: 10, step: { kind: 'presence' as const, seat, on: true } },
  ]),
  { after: 10, step: { kind: 'start' as const } },
];

/**
 * What one run showed each viewer, as JSON lines, and where the watched question's first reveal came
 * in each viewer's lines.
 */
interface Shown {
  readonly frames: Map<string, string[]>;
  readonly revealAt: Map<string, number>;
  /** Every typed answer the room took, with its typist. */
  readonly typed: { readonly seat: string; readonly text: string }[];
  /** The kinds of the questions revealed, and how many players joined a running game. */
  readonly revealed: Set<string>;
  readonly late: number;
}

/**
 * Plays a history on a room with this deck. `change`, when given, is the second run's change: the
 * answers of every seat except `keep` to the watched question (by its deck id) are changed for
 * others.
 */
function play(h: History, deck: readonly DeckQuestion[], watched: number, change?: { readonly keep?: string }): Shown {
  const ctx = (now: number): RuleContext => ({ now, random: seededRandom(7, now), id: unguessableIds(undefined, 7, now) });
  const body = { hostName: 'Quizmaster', questionCount: 5, secondsPerQuestion: 8, revealSeconds: 2, maxPlayers: 4, minPlayers: 1, ...h };
  const { steps: _steps, ...settingsBody } = body;
  let state = triviaGame.opening!.state(
    { roomId: 'room-p', code: 'PRIV01', opener: 'host' },
    triviaGame.opening!.settings(settingsBody, 7),
    {
      at: T0,
      expirySeconds: 300,
      deck: { id: 'deck-k', items: deck },
    },
  ) as TriviaState;
  const frames = new Map(VIEWERS.map((v) => [nameOf(v), [] as string[]]));
  const revealAt = new Map<string, number>();
  const typed: { seat: string; text: string }[] = [];
  const revealed = new Set<string>();
  let late = 0;
  const watchedOpen = () => state.phase === 'question' && state.game?.questions[state.game.index].id === watched;

  const take = (outcome: Outcome<TriviaState>, now: number) => {
    for (const e of outcome.events) {
      const game = outcome.state.game;
      const closed = e.type === 'question.closed' ? game?.questions[(e.data as { index: number }).index] : undefined;
      if (closed) revealed.add(closed.kind ?? 'choice');
      const reveals = closed?.id === watched;
      for (const v of VIEWERS) {
        if (e.audience && !isInAudience(v, e.audience)) continue;
        const lines = frames.get(nameOf(v))!;
        if (reveals && !revealAt.has(nameOf(v))) revealAt.set(nameOf(v), lines.length);
        lines.push(JSON.stringify([e.type, e.data]));
      }
    }
    state = outcome.state;
    for (const v of VIEWERS) frames.get(nameOf(v))!.push(JSON.stringify(['room.state', rules.view(state, v, now)]));
  };
  const attempt = (fn: () => Outcome<TriviaState>, now: number) => {
    try {
      take(fn(), now);
    } catch (err) {
      if (!(err instanceof RoomException)) throw err;
    }
  };

  let now = T0;
  for (const { after, step: s } of [...PRELUDE, ...h.steps]) {
    now += after;
    for (let due = rules.nextDeadline(state); due !== undefined && due <= now; due = rules.nextDeadline(state)) {
      const before = state;
      take(rules.onSignal(state, { kind: 'deadline' }, ctx(due)), due);
      if (state === before) break;
    }
    const id = SEATS[(s as { seat?: number }).seat ?? 0];
    const command = (actor: Actor, type: string, data: unknown) =>
      attempt(() => rules.decide(state, actor, rules.parseCommand({ id: `${type}-${now}`, type, data }, actor.role), ctx(now)), now);
    switch (s.kind) {
      case 'join': {
        const running = state.phase === 'question' || state.phase === 'reveal';
        const before = state;
        attempt(() => rules.proposals!.join(state, { playerId: id, name: `Player ${id}` }, ctx(now)), now);
        if (running && state !== before) late++;
        break;
      }
      case 'presence':
        if (state.players.some((p) => p.id === id))
          take(rules.onSignal(state, { kind: 'presence', seat: id, connected: s.on }, ctx(now)), now);
        break;
      case 'start':
        command({ role: 'host' }, 'room.start', {});
        break;
      case 'next':
        command({ role: 'host' }, 'room.next', {});
        break;
      case 'leave':
        command({ role: 'player', seat: id }, 'room.leave', {});
        break;
      case 'rematch':
        command({ role: 'player', seat: id }, 'room.rematch', { vote: s.yes });
        break;
      case 'answer': {
        const q = state.game?.questions[state.game.index];
        const kind = q?.kind ?? 'choice';
        // Mostly use the field the open question takes, and now and then another one (a refusal).
        const field =
          s.field < 8
            ? kind === 'text'
              ? 'text'
              : kind === 'multi'
                ? 'choices'
                : 'choice'
            : (['choice', 'choices', 'text'] as const)[s.field - 7];
        const n = q && 'choices' in q ? q.choices.length : 4;
        let value: unknown = field === 'text' ? TYPED[s.pick % TYPED.length] : field === 'choices' ? s.picks : s.pick % (n + 1);
        if (change && id !== change.keep && watchedOpen()) {
          // In the second run, give another answer of the same shape, valid exactly when the first was.
          if (field === 'text') value = TYPED[(TYPED.indexOf(value as string) + 1) % TYPED.length];
          else if (field === 'choice' && (value as number) < n) value = ((value as number) + 1) % n;
          else if (field === 'choices' && s.picks.every((c) => c < n)) value = s.picks.map((c) => (c + 1) % n);
        }
        const index = state.game?.index ?? 0;
        const before = state;
        command({ role: 'player', seat: id }, 'room.answer', { question: index, [field]: value });
        if (state !== before && field === 'text') typed.push({ seat: id, text: value as string });
        break;
      }
    }
  }
  return { frames, revealAt, typed, revealed, late };
}

/** A viewer's lines before the watched question's reveal, or all of them when the reveal never came. */
const beforeReveal = (shown: Shown, viewer: string) => shown.frames.get(viewer)!.slice(0, shown.revealAt.get(viewer));

describe('trivia privacy with question kinds (property)', () => {
  it('before a question’s reveal, no frame to anyone changes with its right answer or another player’s answer to it', () => {
    fc.assert(
      fc.property(
        history,
        fc.constantFrom(...VIEWERS),
        fc.constantFrom(...KINDS_DECK.map((q) => q.id!)),
        fc.nat(),
        (h, viewer, item, pick) => {
          const changed = KINDS_DECK.map((q) => (q.id === item ? otherAnswers(q, pick) : q));
          const first = play(h, KINDS_DECK, item);
          const second = play(h, changed, item, { keep: viewer.seat });
          expect(beforeReveal(second, nameOf(viewer))).toEqual(beforeReveal(first, nameOf(viewer)));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('sends a typed answer to nobody but its typist: not the host, not a spectator, not another player, before the reveal or after', () => {
    fc.assert(
      fc.property(history, (h) => {
        const shown = play(h, KINDS_DECK, -1);
        for (const v of VIEWERS) {
          const own = new Set(shown.typed.filter((t) => t.seat === v.seat).map((t) => t.text));
          const others = new Set(shown.typed.filter((t) => t.seat !== v.seat && !own.has(t.text)).map((t) => JSON.stringify(t.text)));
          const leaked = shown.frames.get(nameOf(v))!.find((line) => [...others].some((t) => line.includes(t)));
          expect(leaked).toBeUndefined();
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('is checked on histories that reveal every kind, with typed answers and late arrivals (the generator is not idle)', () => {
    const reached = new Set<string>();
    let typed = 0;
    let late = 0;
    fc.assert(
      fc.property(history, (h) => {
        const shown = play(h, KINDS_DECK, -1);
        typed += shown.typed.length;
        late += shown.late;
        for (const kind of shown.revealed) reached.add(kind);
      }),
      { numRuns: RUNS, seed: 34 },
    );
    expect(reached).toEqual(new Set(['choice', 'truefalse', 'multi', 'poll', 'text']));
    expect(typed).toBeGreaterThan(0);
    expect(late).toBeGreaterThan(0);
  });
});
