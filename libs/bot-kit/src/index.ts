export * from './game-client';
export * from './http-api';
export * from './delay-proxy';
export * from './metrics-snapshot';
