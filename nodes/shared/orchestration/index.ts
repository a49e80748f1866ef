// Orchestration half of the protocol core: pure TypeScript, imports nothing from n8n.
export * from './enums';
export * from './keyType';
export * from './limits';
export * from '../errors';
export * from './schemas';
export * from './responseSchemas';
export * from './routeSets';
export * from './webhooks';
export * from './idempotency';
export * from './amounts';
export * from '../inputs';
export * from './additionalFields';
export * from './quotePlan';
export * from './orderPlan';
export * from './orderView';
export * from './zeroconfPlan';
