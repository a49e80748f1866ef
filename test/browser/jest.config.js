/** `npm run test:browser`: the real n8n editor in headless Chromium (Debian's /usr/bin/chromium, playwright-core). */
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/browser'],
	testMatch: ['**/*.browser.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600_000,
	maxWorkers: 1,
};
