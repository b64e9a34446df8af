import { okReply } from '@app/protocol';
import { answer, ctx, HOST, lobby, QUESTIONS, seat, SETTINGS, startCommand, startGame, T0 } from '../test/trivia.fixtures';
import { TriviaErrorCode } from './trivia.errors';
import { REMATCH_SECONDS, TriviaRecord } from './trivia.legacy';
import { trivia } from './trivia.module';
import { decide, onDeadline, resumed } from './trivia.rules';

// Rooms open at the upgrade come back once from trivia's old tables (TriviaRecord, as the old
// loader reads them) through the old replay: the room as it stopped, and the replies it owes.

const EXPIRY = SETTINGS.expirySeconds;
const { rematchSeconds: _r, expirySeconds: _e, ...OLD_SETTINGS } = SETTINGS;

function record(overrides: Partial<TriviaRecord> = {}): TriviaRecord {
  return {
    roomId: 'room-1',
    code: 'ABCDEF',
    hostName: 'Quizmaster',
    settings: OLD_SETTINGS,
    phase: 'lobby',
    closed: false,
    gamesPlayed: 0,
    lastGameAt: T0,
    players: [
      { id: 'p1', name: 'Name p1' },
      { id: 'p2', name: 'Name p2' },
    ],
    playedQuestionIds: [],
    lateDeadlines: [],
    ...overrides,
  };
}

const restore = (r: TriviaRecord) => trivia.legacy!.restore(r, 7, { expirySeconds: EXPIRY });

describe('trivia.legacy', () => {
  it('brings back a lobby with its seats, nobody connected, and the deck the loader read', () => {
    const { state, replies } = restore(record({ players: [{ id: 'p1', name: 'Name p1' }, { id: 'p2', name: 'Name p2', left: { at: T0 + 5, reason: 'left', commandId: 'l-1' } }], deck: QUESTIONS }));
    expect(state).toMatchObject({ phase: 'lobby', gamesPlayed: 0, expiresAt: T0 + EXPIRY * 1000, deck: QUESTIONS });
    expect(state.settings).toEqual({ ...OLD_SETTINGS, rematchSeconds: REMATCH_SECONDS, expirySeconds: EXPIRY });
    expect(state.players).toEqual([seat('p1', { connected: false })]);
    expect(replies).toEqual([]);
    // Its next game draws from that deck.
    expect(decide(state, HOST, startCommand(), ctx(T0 + 10)).state.game!.questions).toHaveLength(3);
  });

  it("takes the last game's questions for the deck when the record has no deck, and owes that game's replies", () => {
    const lastGame: TriviaRecord['lastGame'] = {
      id: 'old-game-uuid',
      no: 1,
      questions: QUESTIONS.slice(0, 2),
      roster: ['p1', 'p2'],
      startedAt: T0,
      startCommandId: 'h-start',
      answers: [{ playerId: 'p1', question: 0, choice: 1, at: T0 + 1000, commandId: 'a-1' }],
      closes: [],
      votes: [{ playerId: 'p1', vote: true, at: T0 + 90_000, commandId: 'v-1' }],
    };
    // The rematch was accepted: the room is back in its lobby.
    const { state, replies } = restore(record({ gamesPlayed: 1, lastGameAt: T0 + 95_000, playedQuestionIds: [11, 12], lastGame }));
    expect(state.phase).toBe('lobby');
    expect(state.deck).toEqual(QUESTIONS.slice(0, 2));
    expect(state.playedQuestionIds).toEqual([11, 12]);
    expect(replies).toEqual([
      { seat: 'host', reply: okReply('h-start', {}) },
      { seat: 'p:p1', reply: okReply('a-1', { accepted: true }) },
      { seat: 'p:p1', reply: okReply('v-1', {}) },
    ]);
  });

  it('refuses a start in a room with neither a deck nor a game behind it', () => {
    const { state } = restore(record());
    expect(state.deck).toEqual([]);
    expect(() => decide(state, HOST, startCommand(), ctx(T0 + 1))).toThrow(expect.objectContaining({ code: TriviaErrorCode.DeckNotFound }));
  });

  it('replays a game in progress, its early close and the deadlines between, as the rules play it live', () => {
    const lastGame: TriviaRecord['lastGame'] = {
      id: 'old-game-uuid',
      no: 1,
      questions: QUESTIONS,
      roster: ['p1', 'p2'],
      startedAt: T0,
      startCommandId: 'h-start',
      answers: [
        { playerId: 'p1', question: 0, choice: 1, at: T0 + 1000, commandId: 'a-1' },
        { playerId: 'p2', question: 0, choice: 0, at: T0 + 2000, commandId: 'a-2' },
        { playerId: 'p1', question: 1, choice: 2, at: T0 + 9000, commandId: 'a-3' },
      ],
      closes: [],
      votes: [],
    };
    const { state, replies } = restore(record({ phase: 'question', gamesPlayed: 1, playedQuestionIds: [11, 12, 13], lastGame }));

    // The same game, played live on today's rules: both answer, the question closes early, the
    // reveal ends on its deadline, and p1 answers the next question.
    let live = startGame(lobby(2)).state;
    live = { ...live, game: { ...live.game!, id: 'old-game-uuid' } };
    live = answer(live, 'p1', 0, 1, T0 + 1000, 'a-1').state;
    live = answer(live, 'p2', 0, 0, T0 + 2000, 'a-2').state;
    live = onDeadline(live, live.game!.revealEndsAt!).state;
    live = answer(live, 'p1', 1, 2, T0 + 9000, 'a-3').state;
    expect(state).toEqual(resumed(live));
    expect(state).toMatchObject({ phase: 'question', game: { index: 1, closed: [expect.any(Array)] } });
    expect(replies.map((r) => r.reply.id)).toEqual(['h-start', 'a-1', 'a-2', 'a-3']);
    expect(replies.every((r) => r.reply.status === 200)).toBe(true);
  });

  it('brings back a closed room as closed', () => {
    expect(restore(record({ closed: true })).state.phase).toBe('closed');
  });

  it('is plain JSON, as a snapshot of it will be', () => {
    const { state } = restore(record({ deck: QUESTIONS }));
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
