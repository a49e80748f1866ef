/**
 * `npm run test:e2e:faults`: the Orchestration Trigger while Redis, Postgres, a webhook process, the
 * worker (queue mode) or n8n itself (single mode) dies; one mode per file (queue.e2e.ts,
 * single.e2e.ts), each in a world of its own, side by side: about 6 minutes on two cores (9 one
 * after the other; with issue 43's Postgres crash case and reconciliation, measured one after the
 * other at load 4 to 6: queue 13 min, single 10 min).
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
	maxWorkers: 2,
};
