// Every HTTP body, query, path parameter and answer, each as one zod schema. The server validates
// with them, the API document (/api/docs) is generated from them, and the console's types are
// inferred from them. They are browser-safe (no Node imports), because the console takes them
// from this package.
export * from './fields.js';
export * from './errors.js';
export * from './rooms.js';
export * from './decks.js';
export * from './images.js';
export * from './deck-list.js';
export * from './results.js';
export * from './health.js';
export * from './admin.js';
