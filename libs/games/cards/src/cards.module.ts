import { GameModule } from '@app/room-engine';
import { CARDS_WIRE_CODES } from './cards.codes';
import { CardsErrorCode, cardsError } from './cards.errors';
import { cardsRules } from './cards.game';
import { publicTableSummary } from './cards.projection';
import { CardsState } from './cards.types';

/** The card practice table as the server registers it (PROTOCOL.md section 8). */
export const cards: GameModule<CardsState> = {
  kind: cardsRules.kind,
  rules: cardsRules,
  codes: CARDS_WIRE_CODES,
  publicSummary: publicTableSummary,
  operatorDetail: (state) => ({ table: publicTableSummary(state) }),
  // The table is its human's: only that seat's token closes it.
  mayClose: (state, actor) => actor.role === 'player' && actor.seat === state.playerId,
  error: (code, message) => cardsError(code as CardsErrorCode, message),
};
