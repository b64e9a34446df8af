export * from './statuses';
export * from './room-error';
export * from './wire.types';
export * from './command.validation';
export * from './replies';
