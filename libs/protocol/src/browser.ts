// The library's door for browsers (web-admin's pages resolve @app/protocol here): the envelope,
// the statuses and close codes, and the client. Only erasable TypeScript and no Node imports,
// so a browser build and its stricter compiler settings take these files as they are.
export * from './statuses';
export * from './wire.types';
export * from './client/frame-socket';
export * from './client/client-session';
export * from './client/reconnecting-client';
export * from './codec';
// The HTTP shapes: zod schemas and the types inferred from them. Side-effect free (both vite
// configs say so), so a page that only names a type ships no zod.
export * from './http';
