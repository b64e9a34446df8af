import { z } from 'zod';
import {
  type ClientOf,
  commandData,
  defineWire,
  integerField,
  laterKey,
  usualValues,
  WIRE_PROFILES,
  type WireCommands,
  type WireEvents,
} from '@game-rooms/client';

// The card table's wire (PROTOCOL.md section 8) says what a player's actions are and what the table
// sends, and derives the compact codes from these schemas. It uses only zod and the client
// package's generic pieces, because the client package builds this file into its
// `@game-rooms/client/cards` entry point.

export const TABLE_ACTIONS = ['fold', 'check', 'call', 'bet', 'raise', 'all_in'] as const;

/** The most chips an amount may be. Chips are whole numbers, and no stack comes near this. */
export const MAX_CHIPS = 1_000_000_000;

export const CARDS_COMMANDS = {
  // `amount` is the total a bet or raise reaches. A null amount is taken as absent.
  'table.act': commandData({
    action: z.enum(TABLE_ACTIONS, { error: `must be one of ${TABLE_ACTIONS.join(', ')}` }),
    amount: integerField('must be a whole number of chips', 0, MAX_CHIPS).nullish(),
  }),
  'table.rebuy': commandData({}),
  'table.leave': commandData({}),
};

const action = z.enum(TABLE_ACTIONS);
const street = z.enum(['preflop', 'flop', 'turn', 'river']);

/**
 * Every card, as rank then suit (`As`, `Td`). The cards are spelled out rather than taken from
 * cards.deck, because their order is part of the compact codes (a card travels as its position
 * here), and because this file is plain data for the browser too.
 */
export const WIRE_CARDS: readonly string[] = [...'shdc'].flatMap((suit) => [...'23456789TJQKA'].map((rank) => `${rank}${suit}`));

const card = z.enum(WIRE_CARDS as [string, ...string[]]);

const rules = z.object({ smallBlind: z.number(), bigBlind: z.number(), buyIn: z.number(), actionSeconds: z.number() });

const seat = z.object({
  seat: z.number(),
  name: z.string(),
  human: z.boolean(),
  stack: z.number(),
  committed: z.number(),
  folded: z.boolean(),
  allIn: z.boolean(),
  connected: z.boolean(),
  buyInTotal: z.number(),
});

const hand = z.object({
  number: z.number(),
  button: z.number(),
  street,
  board: z.array(card),
  pot: z.number(),
  currentBet: z.number(),
  minRaise: z.number(),
  toAct: z.number().nullable(),
  actionDeadline: z.number().nullable(),
});

const pot = z.object({ amount: z.number(), winners: z.array(z.object({ seat: z.number(), amount: z.number() })) });
const shown = z.object({ seat: z.number(), cards: z.array(card), rank: z.string() });
// `buyInTotal` comes before the standing's own numbers, because that is the order in which the
// compact keys were first numbered.
const standing = z.object({
  seat: z.number(),
  name: z.string(),
  human: z.boolean(),
  buyInTotal: z.number(),
  stack: z.number(),
  net: z.number(),
  hands: z.number(),
  connected: z.boolean(),
});

/** Why the table closed. A reason not in this list travels as text. */
const reason = usualValues(z.string(), ['left', 'expired', 'player_closed', 'operator_closed']);

export const CARDS_EVENTS = {
  /** The table as this viewer may see it. It comes first on every socket, and after a reload. */
  'table.snapshot': z.object({
    code: z.string(),
    // The phases are in the order of the compact codes' enum, which sends a phase as its position.
    phase: z.enum(['between', 'playing', 'waiting', 'closed']),
    /** The wire profile this socket got (section 7). */
    wire: z.enum(WIRE_PROFILES).optional(),
    /** `seat` is present only for the table's human player. */
    you: z.object({ role: z.enum(['host', 'player', 'spectator']), seat: z.number().optional() }),
    rules,
    seats: z.array(seat),
    handsPlayed: z.number(),
    serverTime: z.number(),
    /** Between hands, when the next hand is dealt. */
    nextHandAt: z.number().optional(),
    /** The hand, present while a hand is played. */
    hand: hand.optional(),
    /** Your own hole cards, and nobody else's. */
    yourCards: z.array(card).optional(),
  }),
  'table.rules': rules,
  'hand.started': z.object({
    number: z.number(),
    button: z.number(),
    blinds: z.array(z.object({ seat: z.number(), amount: z.number() })),
    pot: z.number(),
    currentBet: z.number(),
    minRaise: z.number(),
  }),
  /** `cards` goes only to the seat that holds them. Everyone else gets null. */
  'hole_cards.dealt': z.object({ seat: z.number(), cards: z.array(card).nullable() }),
  'action.applied': z.object({
    seat: z.number(),
    action,
    amount: z.number(),
    stack: z.number(),
    pot: z.number(),
    currentBet: z.number(),
    toAct: z.number().nullable(),
    actionDeadline: z.number().nullable(),
    /** Present when the seat's clock ran out and the table acted for it. Its compact key is numbered last. */
    timeout: laterKey(z.literal(true).optional()),
  }),
  'street.dealt': z.object({ street, board: z.array(card), pot: z.number() }),
  time_bank: z.object({ seat: z.number(), remainingMs: z.number() }),
  'hand.finished': z.object({
    number: z.number(),
    pots: z.array(pot),
    shown: z.array(shown),
    stacks: z.array(z.object({ seat: z.number(), stack: z.number() })),
  }),
  standings: z.object({ seats: z.array(standing) }),
  'table.closed': z.object({ reason }),
};

/**
 * The card table's wire with its compact codes (PROTOCOL.md sections 7 and 8), derived from the
 * schemas above (see `deriveCodes` for the rules that keep them stable). The compact rules were
 * chosen from the bytes per hand by kind. `action.applied` and `time_bank` are most of a hand,
 * followed by `standings`, `hole_cards.dealt` (a no-op to everyone but the owner) and
 * `hand.finished`, and the keys are numbered in that order. Seats are numbers already, so nothing
 * is an id for a socket to number.
 */
export const CARDS_WIRE = defineWire({
  kind: 'cards',
  commands: CARDS_COMMANDS,
  events: CARDS_EVENTS,
  stateEvent: 'table.snapshot',
  compact: {
    'table.snapshot': {
      sticky: ['code', 'rules', 'seats[].seat', 'seats[].name', 'seats[].human'],
      defaults: {
        'seats[].human': false,
        'seats[].committed': 0,
        'seats[].folded': false,
        'seats[].allIn': false,
        'seats[].connected': false,
      },
    },
    // The blinds stay the same hand after hand (until a stack is short), and only the seats move.
    'hand.started': { sticky: ['blinds[].amount', 'pot', 'currentBet', 'minRaise'] },
    // Every seat's deal goes to every viewer, but only the seat's owner learns anything from it.
    'hole_cards.dealt': { noopWhenNull: 'cards' },
    // A check or fold leaves the pot and the bet as they were, and the last action of a street hands
    // the turn to nobody.
    'action.applied': { sticky: ['pot', 'currentBet'], defaults: { amount: 0, toAct: null, actionDeadline: null } },
    'street.dealt': { sticky: ['pot'] },
    // Every turn starts with the table's whole clock.
    time_bank: { sticky: ['remainingMs'] },
    'hand.finished': { sticky: ['stacks[].seat'] },
    // The seats, their names and their buy-ins change rarely, while stacks, nets and hands change every hand.
    standings: {
      sticky: ['seats[].seat', 'seats[].name', 'seats[].human', 'seats[].buyInTotal', 'seats[].connected'],
      defaults: { 'seats[].human': false, 'seats[].connected': false },
    },
  },
  keyOrder: [
    'action.applied',
    'time_bank',
    'street.dealt',
    'hand.started',
    'hole_cards.dealt',
    'hand.finished',
    'standings',
    'table.snapshot',
    'table.closed',
  ],
});

/** The card table's section of the compact code table, derived from its schemas. */
export const CARDS_WIRE_CODES = CARDS_WIRE.codes;

export type CardsCommands = WireCommands<typeof CARDS_WIRE>;
export type CardsEvents = WireEvents<typeof CARDS_WIRE>;
export type TableAction = z.output<typeof action>;
export type Street = z.output<typeof street>;
export type TableRules = z.output<typeof rules>;
export type TableSeat = z.output<typeof seat>;
export type TableHand = z.output<typeof hand>;
/** A seat's standing: its stack and what it won or lost, hand after hand. */
export type TableStanding = Omit<z.output<typeof standing>, 'buyInTotal' | 'connected'>;

/** A seat's connection to a cards room: `send` and `on` take only this game's types and shapes. */
export type TableClient = ClientOf<typeof CARDS_WIRE>;
