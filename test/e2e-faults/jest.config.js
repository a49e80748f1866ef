/**
 * `npm run test:e2e:faults`: the Orchestration Trigger while Redis, Postgres, a webhook process, the
 * worker (queue mode) or n8n itself (single mode) dies; one mode per file (queue.e2e.ts,
 * single.e2e.ts), each in a world of its own, one after the other: side by side on two cores
 * (362 s instead of 540 s) the queue mode's Postgres case lost 8 events, n8n's worker failing the
 * jobs it could not load from the stopped database and its Retry of them failing too (README,
 * "What CI runs").
 */
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/e2e-faults'],
	testMatch: ['**/*.e2e.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 1_800_000,
	maxWorkers: 1,
};
