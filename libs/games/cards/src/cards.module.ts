import { GameModule } from '@app/room-engine';
import { cardsGame } from './cards.game';
import { cardsLegacy } from './cards.legacy';
import { CardsState } from './cards.types';

/** The card practice table as the server registers it (PROTOCOL.md section 8), with the tables from before the journal. */
export const cards: GameModule<CardsState> = { ...cardsGame, legacy: cardsLegacy };
