/**
 * `npm run test:e2e:faults`: the Orchestration Trigger while Redis, Postgres, a webhook process, the
 * worker (queue mode) or n8n itself (single mode) dies (issue 25). About 20 minutes here.
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
