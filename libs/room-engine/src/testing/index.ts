// The engine's entry for tests of a game (`@app/room-engine/testing`): testGame() for a game's
// author, and the journal harness it is built on for property tests. Nothing here does I/O.
export * from './journaled-room';
export * from './test-game';
