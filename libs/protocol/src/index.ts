export * from './statuses';
export * from './room-error';
export * from './wire.types';
export * from './command.validation';
export * from './replies';
export * from './client/frame-socket';
export * from './client/client-session';
export * from './client/reconnecting-client';
