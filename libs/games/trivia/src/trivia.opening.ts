import { z } from 'zod';
import { Question, Settings, TriviaState } from './trivia.types';

/**
 * The deck's item schema, which trivia declares as the game that plays from a deck: every question
 * a room copies is checked against it (the engine's deck items are the game's, of any shape).
 */
export const DECK_QUESTION = z
  .object({ id: z.int().optional(), text: z.string(), choices: z.array(z.string()).min(2), correct: z.int().min(0) })
  .refine((q) => q.correct < q.choices.length, { message: 'correct must be the place of one of the choices', path: ['correct'] });

/** A question as a deck holds it (DECK_QUESTION): its id in the room is its place in the deck unless it has one. */
export interface DeckQuestion {
  readonly id?: number;
  readonly text: string;
  readonly choices: readonly string[];
  readonly correct: number;
}

// Thousands of rooms play the same deck: the server hands them one frozen copy, and the room's
// questions made from it are made once and shared (a copy per room was most of a room's memory).
const fromFrozen = new WeakMap<readonly DeckQuestion[], readonly Question[]>();

/**
 * The room's own plain copy of its deck (only what a question is, numbered): what else a deck
 * carries, or a later change to it, is not the room. A frozen deck cannot change, so its copy is
 * made once, frozen, and shared by every room that plays it.
 */
export function roomDeck(deck: readonly DeckQuestion[]): readonly Question[] {
  const frozen = Object.isFrozen(deck);
  const known = frozen ? fromFrozen.get(deck) : undefined;
  if (known) return known;
  const copy = deck.map((q, place) => ({ id: q.id ?? place, text: q.text, choices: [...q.choices], correct: q.correct }));
  if (!frozen) return copy;
  const shared = Object.freeze(copy.map((q) => Object.freeze({ ...q, choices: Object.freeze(q.choices) })));
  fromFrozen.set(deck, shared);
  return shared;
}

/** What opening a trivia room takes: its ids, its host, its settings, and the deck it plays from. */
export interface TriviaOpening {
  readonly roomId: string;
  readonly code: string;
  readonly hostName: string;
  readonly settings: Settings;
  /** The deck's questions as they are now: the room keeps its own copy, so a deck edited later changes no room. */
  readonly deck: readonly DeckQuestion[];
  readonly openedAt: number;
}

/** A new room: an empty lobby that expires `expirySeconds` after it opened unless a game starts. */
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
    // Plain JSON: a snapshot is the state as JSON.
    deck: roomDeck(deck),
    playedQuestionIds: [],
  };
}
