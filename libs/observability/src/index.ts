export * from './metric-names';
export * from './label-vocabulary';
export * from './command-tally';
export * from './game-metrics';
export * from './metrics.module';
