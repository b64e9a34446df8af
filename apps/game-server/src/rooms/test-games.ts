// Games that live only in tests, one line each (`export { game } from '@app/games/<folder>';`):
// a server started for tests (ALLOW_TEST_GAMES=1) serves them beside the registry's own.
export {};
export { ticTacToe } from '@app/games/tictactoe';
export { faultyBoard } from '@app/games/tictactoe';
