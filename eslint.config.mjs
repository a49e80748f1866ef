// n8n's community lint config applies unchanged to the code that ships and runs inside n8n
// (nodes/, credentials/, package.json). The sandbox, tests, benchmarks and scripts are ordinary
// Node programs (timers, process, fs), so they get a Node config instead of n8n Cloud's rules.
import js from '@eslint/js';
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SHIPPED = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const NODE_PROGRAMS = ['sandbox/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'];

/** n8n's entries target every `**\/*.ts`; narrow them to the shipped folders, nothing else changes. */
const scopedN8nConfig = n8nConfig.map((entry) =>
	entry.files && entry.files.includes('**/*.ts') ? { ...entry, files: SHIPPED } : entry,
);

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tools/**', '.n8n-cache/**', '.dist-test-*/**'] },
	...scopedN8nConfig,
	...tseslint.config({
		files: NODE_PROGRAMS,
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
