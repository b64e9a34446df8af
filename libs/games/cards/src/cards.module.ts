import { GameModule, GameOpening } from '@app/room-engine';
import { CARDS_WIRE_CODES } from './cards.wire';
import { TABLE_SUMMARY } from './cards.summary';
import { CardsErrorCode, cardsError } from './cards.errors';
import { cardsRules } from './cards.game';
import { publicTableSummary } from './cards.projection';
import { CardsState, TableSettings } from './cards.types';
import { openCards } from './cards.rules';
import { TABLE_SETTINGS, tableSettings } from './cards.settings';

/** A table opens for the one person who plays it, against bots: its opener is its human seat. */
const opening: GameOpening<CardsState, TableSettings> = {
  settings: tableSettings,
  schema: TABLE_SETTINGS,
  openerRole: 'player',
  state: (ids, settings, opened) => openCards({ tableId: ids.roomId, code: ids.code, playerId: ids.opener, settings, openedAt: opened.at }),
};

/** The card practice table as the server registers it (PROTOCOL.md section 8). */
export const cards: GameModule<CardsState> = {
  kind: cardsRules.kind,
  rules: cardsRules,
  codes: CARDS_WIRE_CODES,
  opening,
  publicSummary: publicTableSummary,
  schemas: { summary: TABLE_SUMMARY },
  operatorDetail: (state) => ({ table: publicTableSummary(state) }),
  // Only the human sends commands: its seat is the table's one human seat.
  seatName: (state, seat) => (seat === state.playerId ? state.seats.find((s) => s.human)?.name : undefined),
  // The table is its human's: only that seat's token closes it.
  mayClose: (state, actor) => actor.role === 'player' && actor.seat === state.playerId,
  error: (code, message) => cardsError(code as CardsErrorCode, message),
};
