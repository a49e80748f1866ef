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
	// two at a time: three at once, on two cores, failed tests (measured with 16 files; docs/development.md)
	maxWorkers: 2,
};
