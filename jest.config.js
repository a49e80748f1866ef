/** Jest runs TypeScript (and the ESM-only @noble, @scure, micro-eth-signer and micro-packed packages) through SWC into CommonJS. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.(t|j|mj)sx?$': [
			'@swc/jest',
			{
				jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
				module: { type: 'commonjs' },
			},
		],
	},
	transformIgnorePatterns: ['/node_modules/(?!(@noble|@scure|micro-eth-signer|micro-packed)/)'],
	moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
	testTimeout: 30000,
};
