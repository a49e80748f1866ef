/** Execution gateway protocol core: pure TypeScript, imports nothing from n8n. */
export { ProtocolError } from '../errors';
export * from './hex';
export * from './keys';
export * from './eip1559';
export * from './intentFields';
export * from './canonical';
export * from './intentPlan';
export * from './responses';
