import { codeTable, GameCodes } from '../src/codec/code-table.js';

/**
 * A neutral game's section of the compact-v2 table, for the generic libraries' own tests: rounds
 * of moves, with the features a real section has (sticky fields, defaults, a list keyed by ids,
 * enums), so that they are tested without any real game.
 */
export const ROUNDS_CODES: GameCodes = {
  kind: 'rounds',
  stateEvent: 'rounds.state',
  events: {
    'rounds.state': { code: 0, sticky: ['code', 'host', 'settings'], defaults: { 'players[].connected': true, 'players[].score': 0 } },
    'round.progress': { code: 1, sticky: ['index', 'of'] },
    'round.closed': { code: 2, sticky: ['scores[].playerId'], defaults: { 'scores[].points': 0 } },
  },
  keys: [
    'index',
    'of',
    'moved',
    'scores',
    'playerId',
    'points',
    'total',
    'code',
    'phase',
    'wire',
    'you',
    'role',
    'host',
    'players',
    'settings',
    'serverTime',
    'id',
    'name',
    'connected',
    'score',
    'outcome',
    'counts',
  ],
  enums: {
    phase: ['lobby', 'round', 'closed'],
    role: ['host', 'player', 'spectator'],
    wire: ['json', 'compact-v1', 'compact-v2', 'compact-v3'],
  },
  ids: ['id', 'playerId'],
};

export const ROUNDS_TABLE = codeTable(1, [ROUNDS_CODES]);
