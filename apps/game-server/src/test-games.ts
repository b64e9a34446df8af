// The games that live only in tests, one line each. A server started for tests (ALLOW_TEST_GAMES=1)
// serves them beside the registry's own games. Test-only games live in libs/games/test, not in a
// game's folder.
export {};
export { ticTacToe } from '@app/games/tictactoe';
export { faultyBoard } from '../../../libs/games/test/faulty-board';
