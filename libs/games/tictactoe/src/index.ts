export * from './tictactoe.wire';
export * from './tictactoe.rules';
export * from './tictactoe.module';
export * from './faulty-board';
