import type { GameCodes } from '../codec/code-table.js';

// Spelled out rather than taken from cards.deck: this file is plain data for the browser too,
// and the order is part of the versioned table (a card goes as its index here).
const WIRE_CARDS: readonly string[] = [...'shdc'].flatMap((suit) => [...'23456789TJQKA'].map((rank) => `${rank}${suit}`));

/**
 * The card table's section of the compact-v2 code table (PROTOCOL.md sections 7 and 8), chosen
 * from the bytes per hand by kind: `action.applied` and `time_bank` are most of a hand, then
 * `standings`, `hole_cards.dealt` (to every non-owner a no-op) and `hand.finished`. Codes are
 * positions: a list only ever grows at its end, and any other change is a new version of the
 * table. Plain data, for the browser too.
 */
export const CARDS_WIRE_CODES: GameCodes = {
  kind: 'cards',
  stateEvent: 'table.snapshot',
  events: {
    'table.snapshot': {
      code: 0,
      sticky: ['code', 'rules', 'seats[].seat', 'seats[].name', 'seats[].human'],
      defaults: { 'seats[].human': false, 'seats[].committed': 0, 'seats[].folded': false, 'seats[].allIn': false, 'seats[].connected': false },
    },
    'table.rules': { code: 1 },
    // The blinds are the same hand after hand (until a stack is short): only the seats move.
    'hand.started': { code: 2, sticky: ['blinds[].amount', 'pot', 'currentBet', 'minRaise'] },
    // Every seat's deal goes to every viewer, but only its owner learns anything from it.
    'hole_cards.dealt': { code: 3, noopWhenNull: 'cards' },
    // A check or fold leaves the pot and the bet as they were; the last action of a street hands the turn to nobody.
    'action.applied': { code: 4, sticky: ['pot', 'currentBet'], defaults: { amount: 0, toAct: null, actionDeadline: null } },
    'street.dealt': { code: 5, sticky: ['pot'] },
    // Every turn starts with the table's whole clock.
    time_bank: { code: 6, sticky: ['remainingMs'] },
    'hand.finished': { code: 7, sticky: ['stacks[].seat'] },
    // The seats, their names and buy-ins change rarely; stacks, nets and hands every hand.
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
    cards: WIRE_CARDS,
    board: WIRE_CARDS,
    yourCards: WIRE_CARDS,
  },
  // Seats are numbers already: nothing for a socket to number.
  ids: [],
};
