// The server's name for the compact-v2 code table, which lives in the client package with each
// game's section (packages/client/src/games/*.codes.ts): the clients decode with the very table the server encodes with.
export { WIRE_CODES } from '@game-rooms/client';
