// Every HTTP body, query, path parameter and answer as one zod schema: the server validates with
// them, the API document (/api/docs) is generated from them, and the console's types are inferred
// from them. Browser-safe (no Node imports): the console takes these through browser.ts.
export * from './fields';
export * from './errors';
export * from './rooms';
export * from './decks';
export * from './results';
export * from './health';
export * from './admin';
