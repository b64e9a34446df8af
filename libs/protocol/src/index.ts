export * from './statuses';
export * from './room-error';
export * from './wire.types';
export * from './frame';
export * from './replies';
