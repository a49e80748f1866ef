/** `npm run test:e2e`: the package inside a real n8n (see test/e2e/README in the main README). */
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600_000,
	// two at a time: with 16 files, three n8n instances at once timed triggerLifecycle out connecting to its n8n
	maxWorkers: 2,
};
