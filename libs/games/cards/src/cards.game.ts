import { ZodType } from 'zod';
import { CloseCode } from '@app/protocol';
import { CommandDefinition, defineGame, GameWireOf } from '@app/room-engine';
import { CARDS_COMMANDS, CARDS_WIRE } from './cards.wire';
import { CardsCommandData, CardsCommandType, TableCommand } from './cards.commands';
import { CardsErrorCode, cardsError } from './cards.errors';
import { publicTableSummary, viewTable } from './cards.projection';
import { decide, HUMAN_SEAT, nextDeadline, onDeadline, openCards, resumed, setPresence, shiftClocks, tableClosed } from './cards.rules';
import { TABLE_SETTINGS, tableSettingsOf } from './cards.settings';
import { TABLE_SUMMARY } from './cards.summary';
import { CardsState } from './cards.types';

/**
 * Defines one command, which only the table's player may send, and hands it to the rules to decide.
 * The command's schema is its wire's unless one is given.
 */
function command<T extends CardsCommandType>(type: T, schema?: ZodType): CommandDefinition<CardsState, CardsCommandData[T]> {
  const decideIt: CommandDefinition<CardsState, CardsCommandData[T]>['decide'] = (state, data, ctx) =>
    decide(state, ctx.actor, { id: ctx.commandId, type, data } as TableCommand, ctx.now);
  return schema
    ? { schema: schema as ZodType<CardsCommandData[T]>, roles: ['player'], decide: decideIt }
    : { roles: ['player'], decide: decideIt };
}

/** The card practice table on the room engine, playing the rules of PROTOCOL.md section 8. */
export const cardsGame = defineGame({
  // The rules get CardsCommandData, because the act's schema is its wire's with a null amount
  // taken as none (see below).
  wire: CARDS_WIRE as GameWireOf<CardsCommandData>,
  settings: TABLE_SETTINGS,
  settingsOf: tableSettingsOf,
  // A table opens for the one person who plays it against bots, so the opener is the table's human seat.
  setup: (settings, opened) =>
    openCards({ tableId: opened.roomId, code: opened.code, playerId: opened.opener, settings, openedAt: opened.at }),
  commands: {
    // A null amount is taken as none, so the rules see either a number or no field at all.
    'table.act': command(
      'table.act',
      CARDS_COMMANDS['table.act'].transform(({ action, amount }) =>
        amount === undefined || amount === null ? { action } : { action, amount },
      ),
    ),
    'table.rebuy': command('table.rebuy'),
    'table.leave': command('table.leave'),
  },
  view: viewTable,
  describe: publicTableSummary,
  summarySchema: TABLE_SUMMARY,
  operatorDetail: (state) => ({ table: publicTableSummary(state) }),
  round: (state) => (state.phase === 'playing' ? (state.hand?.number ?? null) : null),

  nextDeadline,
  onDeadline: (state, ctx) => onDeadline(state, ctx.now),
  shiftClocks,

  // The bots' seats count as seats, but never as connected, because only the human has sockets.
  seats: (state) =>
    state.seats.map((s) => ({
      id: s.seat === HUMAN_SEAT ? state.playerId : `bot-${s.seat}`,
      name: s.name,
      connected: s.seat === HUMAN_SEAT && s.connected,
    })),
  onPresence: (state, seat, connected) => setPresence(state, seat, connected),
  onResumed: resumed,
  onClosed: tableClosed,
  admit(state, viewer) {
    if (state.phase === 'closed') return { closeCode: CloseCode.roomClosed, reason: 'table closed' };
    if (viewer.role === 'player' && viewer.seat !== state.playerId)
      return { closeCode: CloseCode.seatGone, reason: 'not a seat at this table' };
    return null;
  },
  // Only the human sends commands, so the only seat with a name here is the table's one human seat.
  seatName: (state, seat) => (seat === state.playerId ? state.seats.find((s) => s.human)?.name : undefined),
  // The table belongs to its human, so only that seat's token may close it.
  mayClose: (state, actor) => actor.role === 'player' && actor.seat === state.playerId,
  error: (code, message) => cardsError(code as CardsErrorCode, message),

  // Hands go on while the human is away (the human's clock checks or folds for them), so the table
  // stays in memory until the human is out of chips.
  mayPassivate: (state) => state.phase === 'waiting' || state.phase === 'closed',
});

/** The rules as the engine drives them. */
export const cardsRules = cardsGame.rules;
