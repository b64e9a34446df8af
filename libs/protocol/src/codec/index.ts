export * from './code-table';
export * from './wire-memory';
export * from './compact-codec';
export * from './frame-decoder';
