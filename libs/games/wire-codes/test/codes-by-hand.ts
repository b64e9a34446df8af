import type { GameCodes } from '@game-rooms/client';

// The compact code tables as they were written by hand before the codes were derived from the
// games' schemas, copied here as they were and never to be edited: the derived
// tables must equal them, so that every client of compact-v2 and compact-v3 keeps decoding.

// Spelled out rather than taken from cards.deck: this file is plain data for the browser too,
// and the order is part of the versioned table (a card goes as its index here).
const HAND_CARDS: readonly string[] = [...'shdc'].flatMap((suit) => [...'23456789TJQKA'].map((rank) => `${rank}${suit}`));

export const TRIVIA_CODES_BY_HAND: GameCodes = {
  kind: 'trivia',
  stateEvent: 'room.state',
  events: {
    'room.state': { code: 0, sticky: ['code', 'host', 'settings'], defaults: { 'players[].connected': true, 'players[].score': 0 } },
    'player.joined': { code: 1, defaults: { 'player.connected': true, 'player.score': 0 } },
    'player.left': { code: 2 },
    'player.presence': { code: 3 },
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

export const CARDS_CODES_BY_HAND: GameCodes = {
  kind: 'cards',
  stateEvent: 'table.snapshot',
  events: {
    'table.snapshot': {
      code: 0,
      sticky: ['code', 'rules', 'seats[].seat', 'seats[].name', 'seats[].human'],
      defaults: { 'seats[].human': false, 'seats[].committed': 0, 'seats[].folded': false, 'seats[].allIn': false, 'seats[].connected': false },
    },
    'table.rules': { code: 1 },
    'hand.started': { code: 2, sticky: ['blinds[].amount', 'pot', 'currentBet', 'minRaise'] },
    'hole_cards.dealt': { code: 3, noopWhenNull: 'cards' },
    'action.applied': { code: 4, sticky: ['pot', 'currentBet'], defaults: { amount: 0, toAct: null, actionDeadline: null } },
    'street.dealt': { code: 5, sticky: ['pot'] },
    time_bank: { code: 6, sticky: ['remainingMs'] },
    'hand.finished': { code: 7, sticky: ['stacks[].seat'] },
    standings: {
      code: 8,
      sticky: ['seats[].seat', 'seats[].name', 'seats[].human', 'seats[].buyInTotal', 'seats[].connected'],
      defaults: { 'seats[].human': false, 'seats[].connected': false },
    },
    'table.closed': { code: 9 },
  },
  keys: [
    'seat', 'action', 'amount', 'stack', 'pot', 'currentBet', 'toAct', 'actionDeadline', 'remainingMs', 'street',
    'board', 'number', 'button', 'blinds', 'minRaise', 'cards', 'pots', 'winners', 'shown', 'rank',
    'stacks', 'seats', 'name', 'human', 'buyInTotal', 'net', 'hands', 'connected', 'code', 'phase',
    'wire', 'you', 'role', 'rules', 'smallBlind', 'bigBlind', 'buyIn', 'actionSeconds', 'committed', 'folded',
    'allIn', 'handsPlayed', 'serverTime', 'nextHandAt', 'hand', 'yourCards', 'reason', 'timeout',
  ],
  enums: {
    action: ['fold', 'check', 'call', 'bet', 'raise', 'all_in'],
    street: ['preflop', 'flop', 'turn', 'river'],
    phase: ['between', 'playing', 'waiting', 'closed'],
    role: ['host', 'player', 'spectator'],
    wire: ['json', 'compact-v1', 'compact-v2', 'compact-v3'],
    reason: ['left', 'expired', 'player_closed', 'operator_closed'],
    cards: HAND_CARDS,
    board: HAND_CARDS,
    yourCards: HAND_CARDS,
  },
  ids: [],
};

export const TICTACTOE_CODES_BY_HAND: GameCodes = {
  kind: 'tictactoe',
  stateEvent: 'ttt.state',
  events: { 'ttt.state': { code: 0 }, 'ttt.joined': { code: 1 }, 'ttt.moved': { code: 2 }, 'ttt.finished': { code: 3 }, 'ttt.presence': { code: 4 } },
  keys: ['code', 'phase', 'board', 'turn', 'moveBy', 'winner', 'seats', 'id', 'name', 'mark', 'connected', 'you', 'seat', 'cell'],
  enums: { phase: ['waiting', 'playing', 'finished', 'closed'], mark: ['X', 'O'], turn: ['X', 'O'] },
  ids: ['id'],
};
