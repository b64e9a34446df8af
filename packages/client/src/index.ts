// The library's door for browsers (web-admin's pages resolve @app/protocol here): the envelope,
// the statuses and close codes, and the client. Only erasable TypeScript and no Node imports,
// so a browser build and its stricter compiler settings take these files as they are.
export * from './statuses.js';
export * from './wire.types.js';
export * from './client/frame-socket.js';
export * from './client/client-session.js';
export * from './client/reconnecting-client.js';
export * from './codec/index.js';
