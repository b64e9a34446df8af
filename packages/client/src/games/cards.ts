import { z } from 'zod';
import type { ReconnectingClient } from '../client/reconnecting-client.js';
import { commandData, type CommandsOf, type EventsOf, integerField } from '../schema.js';

// The card table's wire (PROTOCOL.md section 8): a player's actions, and what the table sends.

export const TABLE_ACTIONS = ['fold', 'check', 'call', 'bet', 'raise', 'all_in'] as const;

/** Chips are whole numbers; no stack comes near this. */
export const MAX_CHIPS = 1_000_000_000;

export const CARDS_COMMANDS = {
  // `amount` is the total a bet or raise reaches; null is taken as absent.
  'table.act': commandData({
    action: z.enum(TABLE_ACTIONS, { error: `must be one of ${TABLE_ACTIONS.join(', ')}` }),
    amount: integerField('must be a whole number of chips', 0, MAX_CHIPS).nullish(),
  }),
  'table.rebuy': commandData({}),
  'table.leave': commandData({}),
};

const action = z.enum(TABLE_ACTIONS);
const street = z.enum(['preflop', 'flop', 'turn', 'river']);

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
  board: z.array(z.string()),
  pot: z.number(),
  currentBet: z.number(),
  minRaise: z.number(),
  toAct: z.number().nullable(),
  actionDeadline: z.number().nullable(),
});

const pot = z.object({ amount: z.number(), winners: z.array(z.object({ seat: z.number(), amount: z.number() })) });
const shown = z.object({ seat: z.number(), cards: z.array(z.string()), rank: z.string() });
const standing = z.object({ seat: z.number(), name: z.string(), human: z.boolean(), stack: z.number(), net: z.number(), hands: z.number() });

export const CARDS_EVENTS = {
  /** The table as this viewer may see it: first on every socket, and after a reload. */
  'table.snapshot': z.object({
    code: z.string(),
    phase: z.enum(['waiting', 'playing', 'between', 'closed']),
    /** `seat` only for the table's human player. */
    you: z.object({ role: z.enum(['host', 'player', 'spectator']), seat: z.number().optional() }),
    rules,
    seats: z.array(seat),
    handsPlayed: z.number(),
    serverTime: z.number(),
    /** Between hands: when the next is dealt. */
    nextHandAt: z.number().optional(),
    /** While a hand is played. */
    hand: hand.optional(),
    /** Your own hole cards, and nobody else's. */
    yourCards: z.array(z.string()).optional(),
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
  /** `cards` only to the seat that holds them; null to everyone else. */
  'hole_cards.dealt': z.object({ seat: z.number(), cards: z.array(z.string()).nullable() }),
  'action.applied': z.object({
    seat: z.number(),
    action,
    amount: z.number(),
    stack: z.number(),
    pot: z.number(),
    currentBet: z.number(),
    toAct: z.number().nullable(),
    actionDeadline: z.number().nullable(),
  }),
  'street.dealt': z.object({ street, board: z.array(z.string()), pot: z.number() }),
  time_bank: z.object({ seat: z.number(), remainingMs: z.number() }),
  'hand.finished': z.object({
    number: z.number(),
    pots: z.array(pot),
    shown: z.array(shown),
    stacks: z.array(z.object({ seat: z.number(), stack: z.number() })),
  }),
  standings: z.object({ seats: z.array(standing.extend({ buyInTotal: z.number(), connected: z.boolean() })) }),
  'table.closed': z.object({ reason: z.string() }),
};

export type CardsCommands = CommandsOf<typeof CARDS_COMMANDS>;
export type CardsEvents = EventsOf<typeof CARDS_EVENTS>;
export type TableAction = z.output<typeof action>;
export type Street = z.output<typeof street>;
export type TableRules = z.output<typeof rules>;
export type TableSeat = z.output<typeof seat>;
export type TableHand = z.output<typeof hand>;
export type TableStanding = z.output<typeof standing>;

/** A seat's connection to a cards room: `send` and `on` take only this game's types and shapes. */
export type TableClient = ReconnectingClient<CardsEvents, CardsCommands>;
