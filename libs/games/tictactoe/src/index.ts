export * from './tictactoe.wire';
export * from './tictactoe.rules';
export * from './tictactoe.game';
