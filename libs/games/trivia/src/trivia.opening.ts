import { Question, Settings, TriviaState } from './trivia.types';

/** What opening a trivia room takes: its ids, its host, its settings, and the deck it plays from. */
export interface TriviaOpening {
  readonly roomId: string;
  readonly code: string;
  readonly hostName: string;
  readonly settings: Settings;
  /** The deck's questions as they are now: the room keeps its own copy, so a deck edited later changes no room. */
  readonly deck: readonly Question[];
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
    deck: deck.map((q) => ({ id: q.id, text: q.text, choices: [...q.choices], correct: q.correct })),
    playedQuestionIds: [],
  };
}
