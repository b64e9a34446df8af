export * from './tictactoe.rules';
export * from './tictactoe.game';
