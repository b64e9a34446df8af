export * from './cards.types';
export * from './cards.errors';
export * from './cards.commands';
export * from './cards.settings';
export * from './cards.deck';
export * from './cards.evaluator';
export * from './cards.pots';
export * from './cards.betting';
export * from './cards.bot';
export type { CardsOpening, TableIds } from './cards.rules';
export { HUMAN_SEAT, openCards, openingCheckpoint, fromCheckpoint, chipsAtTable, buyInsOf, dealingOrder } from './cards.rules';
export * from './cards.projection';
export * from './cards.privacy';
export * from './cards.game';
export {
  CARDS_COMMANDS,
  CARDS_EVENTS,
  CARDS_WIRE,
  CARDS_WIRE_CODES,
  TABLE_ACTIONS,
  WIRE_CARDS,
  type CardsCommands,
  type CardsEvents,
  type TableClient,
} from './cards.wire';
export * from './cards.module';
export * from './cards.summary';
