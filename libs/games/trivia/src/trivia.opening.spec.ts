import { ctx, HOST, QUESTIONS, SETTINGS, startCommand, T0 } from '../test/trivia.fixtures';
import { triviaRules } from './trivia.game';
import { openTrivia, roomDeck } from './trivia.opening';
import { join } from './trivia.rules';

describe(openTrivia.name, () => {
  const opening = { roomId: 'room-1', code: 'ABCDEF', hostName: 'Quizmaster', settings: SETTINGS, deck: QUESTIONS, openedAt: T0 };

  it('opens an empty lobby that expires expirySeconds after it opened', () => {
    const state = openTrivia(opening);
    expect(state).toMatchObject({
      roomId: 'room-1',
      code: 'ABCDEF',
      hostName: 'Quizmaster',
      phase: 'lobby',
      players: [],
      gamesPlayed: 0,
      playedQuestionIds: [],
    });
    expect(state.settings).toEqual(SETTINGS);
    expect(state.expiresAt).toBe(T0 + SETTINGS.expirySeconds * 1000);
    expect(triviaRules.nextDeadline(state)).toBe(state.expiresAt);
  });

  it('keeps its own plain copy of the deck: what else the deck carries, or a later change to it, is not the room', () => {
    const deck = QUESTIONS.map((q) => ({ ...q, choices: [...q.choices], deckId: 'deck-1', createdAt: new Date(0) }));
    const state = openTrivia({ ...opening, deck });
    deck[0].choices[0] = 'changed';
    expect(state.deck).toEqual(QUESTIONS);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('plays: players join and the host starts a game drawn from the deck', () => {
    let state = openTrivia(opening);
    state = join(state, 'p1', 'Ann').state;
    const started = triviaRules.decide(state, HOST, startCommand(), ctx(T0 + 1));
    expect(started.state.phase).toBe('question');
    expect(started.state.game!.questions.map((q) => q.id).sort()).toEqual([11, 12, 13]);
  });
});

describe(roomDeck.name, () => {
  const items = [
    { text: 'Which?', choices: ['a', 'b'], correct: 1 },
    { id: 7, text: 'What?', choices: ['c', 'd'], correct: 0 },
  ];

  it('numbers questions by their place unless they carry an id', () => {
    expect(roomDeck(items).map((q) => q.id)).toEqual([0, 7]);
  });

  it('makes the questions of a frozen deck once: rooms playing it share them', () => {
    const frozen = Object.freeze(items.map((q) => Object.freeze({ ...q, choices: Object.freeze([...q.choices]) })));
    const a = roomDeck(frozen);
    expect(roomDeck(frozen)).toBe(a);
    expect(Object.isFrozen(a[0]) && Object.isFrozen(a[0].choices)).toBe(true);
  });

  it('copies a deck that could still change, every time', () => {
    expect(roomDeck(items)).not.toBe(roomDeck(items));
    expect(roomDeck(items)).toEqual(roomDeck(items));
  });
});
