export * from './clock';
export * from './mailbox';
export * from './deadline';
export * from './audience';
export * from './reply-memory';
export * from './room-registry';
export * from './room-stats';
export * from './turn-batcher';
