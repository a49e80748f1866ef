/** `npm run test:e2e:queue`: the trigger in n8n's queue mode (Postgres, Redis, four n8n processes). */
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/e2e-queue'],
	testMatch: ['**/*.e2e.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600_000,
	maxWorkers: 1,
};
