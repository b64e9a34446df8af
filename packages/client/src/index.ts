// The package's main door: the envelope, the statuses and close codes, the reconnecting client,
// the compact decoders, what a game's wire is made of (`defineWire`), and the HTTP API's shapes.
// It names no game. Each game's wire is an entry point of its own (`@game-rooms/client/<game>`),
// built from the game's folder, and the server's code table is `@game-rooms/client/wire-codes`.
// It uses only erasable TypeScript and no Node imports, so a browser build takes it as it is.
export * from './statuses.js';
export * from './wire.types.js';
export * from './client/frame-socket.js';
export * from './client/client-session.js';
export * from './client/reconnecting-client.js';
export * from './codec/index.js';
export * from './schema.js';
export * from './room-event-names.js';
export * from './room-events.js';
export * from './wire/index.js';
export * from './http/index.js';
