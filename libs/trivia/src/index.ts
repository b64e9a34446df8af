export * from './trivia.types';
export * from './trivia.scoring';
export * from './trivia.rematch';
export {
  RoomCommand,
  batchKindOf,
  decide,
  join,
  gameStarted,
  onDeadline,
  nextDeadline,
  setPresence,
  roomClosed,
  publicSeat,
} from './trivia.rules';
export * from './trivia.projection';
export * from './trivia.writes';
