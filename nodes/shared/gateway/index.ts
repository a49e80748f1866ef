/** Execution gateway protocol core: pure TypeScript, imports nothing from n8n. */
export * from './errors';
export * from './hex';
export * from './json';
export * from './keys';
export * from './signing';
export * from './eip1559';
export * from './validation';
export * from './canonical';
export * from './normalize';
export * from './revert';
export * from './schemas';
