// The server's door to the wire. The envelope, statuses, client, codecs and HTTP shapes live in
// the client package (`packages/client`). The server takes them from its source through the
// tsconfig alias, so the CommonJS server never loads the package's ESM build. What only the server
// does stays here.
export * from '@game-rooms/client';
export * from './room-error';
export * from './frame';
export * from './replies';
export * from './body-fields';
export * from './http/read';
export * from './storable';
