export * from './seat-token';
export * from './room-directory';
export * from './wire-observer';
export * from './socket-session';
export * from './socket-encoder';
export * from './send-queue';
export * from './game.gateway';
export * from './game-ws.adapter';
