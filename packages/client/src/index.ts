// The package's one door: the envelope, the statuses and close codes, the reconnecting client,
// the compact decoders, every game's wire schemas, and the HTTP API's shapes. Only erasable
// TypeScript and no Node imports, so a browser build takes it as it is.
export * from './statuses.js';
export * from './wire.types.js';
export * from './client/frame-socket.js';
export * from './client/client-session.js';
export * from './client/reconnecting-client.js';
export * from './codec/index.js';
export * from './schema.js';
export * from './room-event-names.js';
export * from './room-events.js';
export * from './games/trivia.js';
export * from './games/cards.js';
export * from './games/tictactoe.js';
export * from './games/trivia.codes.js';
export * from './games/cards.codes.js';
export * from './games/wire-codes.js';
export * from './http/index.js';
