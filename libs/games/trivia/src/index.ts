export * from './trivia.types';
export * from './trivia.errors';
export {
  TRIVIA_COMMANDS,
  TRIVIA_EVENTS,
  TRIVIA_WIRE,
  TRIVIA_WIRE_CODES,
  type TriviaClient,
  type TriviaCommands,
  type TriviaEvents,
} from './trivia.wire';
export * from './trivia.commands';
export * from './trivia.scoring';
export * from './trivia.rematch';
export { join, publicSeat, resumed } from './trivia.rules';
export * from './trivia.projection';
export * from './trivia.opening';
export * from './trivia.game';
export * from './trivia.module';
export * from './trivia.settings';
export * from './trivia.results';
export * from './trivia.summary';
export { normalizedText, TRUE_FALSE } from './trivia.kinds';
