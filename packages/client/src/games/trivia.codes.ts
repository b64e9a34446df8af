import type { GameCodes } from '../codec/code-table.js';

/**
 * Trivia's section of the compact-v2 code table. Codes are positions: a list only ever grows at
 * its end, and any other change is a new version of the table. Plain data, for the browser too.
 */
export const TRIVIA_WIRE_CODES: GameCodes = {
  kind: 'trivia',
  stateEvent: 'room.state',
  events: {
    'room.state': { code: 0, sticky: ['code', 'host', 'settings'], defaults: { 'players[].connected': true, 'players[].score': 0 } },
    'player.joined': { code: 1, defaults: { 'player.connected': true, 'player.score': 0 } },
    'player.left': { code: 2 },
    'player.presence': { code: 3 },
    // compact-v3: the reveal and every count name the open question without repeating its index,
    // the deadline goes as the question's length, and a count that is all a frame says goes bare.
    'question.open': { code: 4, sticky: ['total'], v3: { sticky: ['index'], relativeTo: { closesAt: 'serverTime' } } },
    'question.progress': { code: 5, sticky: ['index', 'of'], v3: { stickyAs: { index: 'question.open' }, bare: 'answered' } },
    'question.closed': {
      code: 6,
      sticky: ['scores[].playerId'],
      defaults: { 'scores[].points': 0 },
      v3: { sticky: ['index'], stickyAs: { index: 'question.open' } },
    },
    'game.finished': { code: 7, defaults: { 'standings[].score': 0, 'standings[].correct': 0 } },
    'rematch.open': { code: 8 },
    'rematch.decided': { code: 9 },
    'room.closed': { code: 10 },
  },
  keys: [
    'index', 'total', 'text', 'choices', 'closesAt', 'serverTime', 'answered', 'of', 'correct', 'counts',
    'scores', 'playerId', 'points', 'standings', 'name', 'score', 'rank', 'accepted', 'playerIds', 'reason',
    'player', 'connected', 'id', 'code', 'phase', 'wire', 'you', 'role', 'host', 'players',
    'settings', 'question', 'reveal', 'nextAt', 'rematch', 'voted', 'decided', 'answer', 'choice', 'rematchVote',
    'deckId', 'questionCount', 'secondsPerQuestion', 'revealSeconds', 'maxPlayers', 'minPlayers',
    // Added at the end, as the table's rule asks (codes are positions).
    'resultsId',
  ],
  enums: {
    phase: ['lobby', 'question', 'reveal', 'finished', 'closed'],
    role: ['host', 'player', 'spectator'],
    wire: ['json', 'compact-v1', 'compact-v2', 'compact-v3'],
    reason: ['left', 'kicked', 'expired', 'closed'],
  },
  ids: ['id', 'playerId', 'playerIds'],
};
