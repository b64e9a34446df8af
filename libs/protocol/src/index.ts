export * from './statuses';
export * from './room-error';
export * from './wire.types';
export * from './frame';
export * from './replies';
export * from './client/frame-socket';
export * from './client/client-session';
export * from './client/reconnecting-client';
