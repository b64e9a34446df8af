export * from './game-client';
export * from './http-api';
