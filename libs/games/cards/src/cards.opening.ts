import { GameOpening } from '@app/room-engine';
import { openCards } from './cards.rules';
import { DEFAULT_SETTINGS, tableSettings } from './cards.settings';
import { CardsState, TableSettings } from './cards.types';

/**
 * How a table opens over HTTP (`POST /api/rooms {game: 'cards', ...}`, and `POST /api/tables`):
 * the body's settings, the opener as the table's one human, and the table before its first hand.
 */
export const cardsOpening: GameOpening<CardsState, TableSettings> = {
  settings: (body, seed) => tableSettings(body, seed),
  openerRole: 'player',
  state: (ids, settings, openedAt) => openCards({ tableId: ids.roomId, code: ids.code, playerId: ids.opener, settings, openedAt }),
  schema: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 32 },
      bots: { type: 'integer', minimum: 1, maximum: 8, default: DEFAULT_SETTINGS.bots },
      smallBlind: { type: 'integer', minimum: 1, default: DEFAULT_SETTINGS.smallBlind },
      bigBlind: { type: 'integer', minimum: 1, default: DEFAULT_SETTINGS.bigBlind, description: 'at least the small blind' },
      buyIn: { type: 'integer', minimum: 1, default: DEFAULT_SETTINGS.buyIn, description: 'at least the big blind' },
      actionSeconds: { type: 'number', minimum: 0.2, maximum: 600, default: DEFAULT_SETTINGS.actionSeconds, description: 'fractions are for tests' },
      botThinkMs: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 60000 }, minItems: 2, maxItems: 2, default: DEFAULT_SETTINGS.botThinkMs },
      handPauseMs: { type: 'integer', minimum: 0, maximum: 60000, default: DEFAULT_SETTINGS.handPauseMs },
      seed: { type: 'integer', description: 'only on a server started for tests (ALLOW_TEST_SEEDS=1; refused with 400 otherwise): the same seed and human actions deal and play the same hands' },
    },
  },
};
