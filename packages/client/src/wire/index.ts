export * from './wire-notes.js';
export * from './derive-codes.js';
export * from './define-wire.js';
