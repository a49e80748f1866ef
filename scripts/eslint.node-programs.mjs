// The sandbox, tests, benchmarks and scripts are ordinary Node programs (timers, process, fs): they
// are linted by this config, through the eslint.config.mjs of their folder. The code that ships is
// linted by n8n's template config (the repository's eslint.config.mjs, unchanged: "strict": true).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default [
	...tseslint.config({
		files: ['**/*.ts'],
		extends: [js.configs.recommended, ...tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	}),
	{
		files: ['**/*.js', '**/*.cjs'],
		...js.configs.recommended,
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
	},
	{
		files: ['**/*.mjs'],
		...js.configs.recommended,
		languageOptions: { sourceType: 'module', globals: globals.node },
	},
];
