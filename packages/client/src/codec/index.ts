export * from './code-table.js';
export * from './wire-memory.js';
export * from './compact-codec.js';
export * from './frame-decoder.js';
