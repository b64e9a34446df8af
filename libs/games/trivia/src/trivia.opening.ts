import { z } from 'zod';
import { TRUE_FALSE } from './trivia.kinds';
import { ChoiceQuestion, Question, Settings, TriviaState } from './trivia.types';

const place = z.int().min(0);
const choices = z.array(z.string()).min(2);
/** What every kind of deck question may carry: an id, its text, its own time and its picture. */
const base = {
  id: z.int().optional(),
  text: z.string(),
  seconds: z.number().min(5).max(240).optional(),
  image: z.string().min(1).optional(),
};
const inRange = (q: { choices: readonly string[]; correct: number | readonly number[] }) =>
  (typeof q.correct === 'number' ? [q.correct] : q.correct).every((c) => c < q.choices.length);
const fitsChoices = { message: 'correct must be the place of one of the choices', path: ['correct'] };

/**
 * The deck's item schema. Trivia declares it because trivia is the game that plays from a deck, and
 * the engine's deck items are the game's, of any shape. Every question a room copies is checked
 * against it. A question without `kind` is a `choice` question, as every question was before kinds
 * existed.
 */
export const DECK_QUESTION = z.union([
  z.object({ ...base, kind: z.literal('choice').optional(), choices, correct: place }).refine(inRange, fitsChoices),
  z.object({ ...base, kind: z.literal('truefalse'), choices: choices.optional(), correct: z.union([z.literal(0), z.literal(1)]) }),
  z.object({ ...base, kind: z.literal('multi'), choices, correct: z.array(place).min(1) }).refine(inRange, fitsChoices),
  z.object({ ...base, kind: z.literal('poll'), choices }),
  z.object({ ...base, kind: z.literal('text'), accepted: z.array(z.string().min(1)).min(1) }),
]);

/** What every kind of deck question may carry besides its answers. */
interface DeckQuestionBase {
  readonly id?: number;
  readonly text: string;
  readonly seconds?: number;
  readonly image?: string;
}

/** A deck's `choice` question, as every deck question was before kinds existed. */
export type ChoiceDeckQuestion = DeckQuestionBase & {
  readonly kind?: 'choice';
  readonly choices: readonly string[];
  readonly correct: number;
};

/**
 * A question as a deck holds it (DECK_QUESTION). Its id in the room is its place in the deck, unless
 * it has an id of its own.
 */
export type DeckQuestion =
  | ChoiceDeckQuestion
  | (DeckQuestionBase & { readonly kind: 'truefalse'; readonly choices?: readonly string[]; readonly correct: number })
  | (DeckQuestionBase & { readonly kind: 'multi'; readonly choices: readonly string[]; readonly correct: readonly number[] })
  | (DeckQuestionBase & { readonly kind: 'poll'; readonly choices: readonly string[] })
  | (DeckQuestionBase & { readonly kind: 'text'; readonly accepted: readonly string[] });

/**
 * Makes the room's copy of one deck question. The copy holds only what the question is. A `truefalse`
 * question gets its choices written out, and a `multi` question gets its right choices in order.
 */
function roomQuestion(q: DeckQuestion, place: number): Question {
  const own = {
    id: q.id ?? place,
    text: q.text,
    ...(q.seconds !== undefined ? { seconds: q.seconds } : {}),
    ...(q.image ? { image: q.image } : {}),
  };
  switch (q.kind) {
    case undefined:
    case 'choice':
      return { ...own, choices: [...q.choices], correct: q.correct };
    case 'truefalse':
      return { ...own, kind: 'truefalse', choices: TRUE_FALSE, correct: q.correct };
    case 'multi':
      return { ...own, kind: 'multi', choices: [...q.choices], correct: [...new Set(q.correct)].sort((a, b) => a - b) };
    case 'poll':
      return { ...own, kind: 'poll', choices: [...q.choices] };
    case 'text':
      return { ...own, kind: 'text', accepted: [...q.accepted] };
  }
}

// Thousands of rooms play the same deck. The server hands them one frozen copy, and the room's
// questions are made from it once and shared, because a copy per room was most of a room's memory.
const fromFrozen = new WeakMap<readonly DeckQuestion[], readonly Question[]>();

/**
 * Makes the room's own plain copy of its deck: only what each question is, numbered. Anything else
 * a deck carries, and any later change to the deck, does not belong to the room. A frozen deck cannot
 * change, so its copy is made once, frozen, and shared by every room that plays it.
 */
export function roomDeck(deck: readonly ChoiceDeckQuestion[]): readonly ChoiceQuestion[];
export function roomDeck(deck: readonly DeckQuestion[]): readonly Question[];
export function roomDeck(deck: readonly DeckQuestion[]): readonly Question[] {
  const frozen = Object.isFrozen(deck);
  const known = frozen ? fromFrozen.get(deck) : undefined;
  if (known) return known;
  const copy = deck.map(roomQuestion);
  if (!frozen) return copy;
  const shared = Object.freeze(copy.map((q) => Object.freeze(deepFrozen(q))));
  fromFrozen.set(deck, shared);
  return shared;
}

/** What it takes to open a trivia room: its ids, its host, its settings, and the deck it plays from. */
export interface TriviaOpening {
  readonly roomId: string;
  readonly code: string;
  readonly hostName: string;
  readonly settings: Settings;
  /**
   * The deck's questions as they are now. The room keeps its own copy, so a deck edited later changes
   * no room.
   */
  readonly deck: readonly DeckQuestion[];
  readonly openedAt: number;
}

/** Makes a new room: an empty lobby that expires `expirySeconds` after it opened, unless a game starts. */
export function openTrivia(opening: TriviaOpening): TriviaState {
  const { roomId, code, hostName, settings, deck, openedAt } = opening;
  return {
    roomId,
    code,
    hostName,
    phase: 'lobby',
    settings: { ...settings },
    players: [],
    gamesPlayed: 0,
    expiresAt: openedAt + settings.expirySeconds * 1000,
    // The deck is plain JSON, because a snapshot is the state as JSON.
    deck: roomDeck(deck),
    playedQuestionIds: [],
  };
}

/** Returns the question with its lists frozen too. */
function deepFrozen(q: Question): Question {
  const lists = Object.fromEntries(Object.entries(q).map(([k, v]) => [k, Array.isArray(v) ? Object.freeze(v) : v]));
  return lists as unknown as Question;
}
