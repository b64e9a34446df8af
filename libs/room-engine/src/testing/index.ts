// The engine's entry point for tests of a game (`@app/room-engine/testing`). It offers testGame()
// to a game's author, and the journal harness that testGame() is built on, for property tests.
// Nothing here does I/O.
export * from './journaled-room';
export * from './test-game';
