/**
 * What one operation's bundle pulls in: the files under nodes/ and credentials/ that esbuild bundles
 * for an entry `export * from './<file>'` (n8n external; imports used only as types are erased).
 * Shared by scripts/measure-shape.ts (the issue 13 and 24 measures) and test/build/shape.test.ts.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(__dirname, '..', '..');

/** An operation file exports its execute (indexes and shared pieces do not). */
export function isOperationSource(source: string): boolean {
	return /^export (?:async )?function execute\b/m.test(source);
}

/** The shipped files (under nodes/ and credentials/) in the bundle of `file`, a path from the repository root. */
export async function bundledShippedFiles(file: string): Promise<string[]> {
	const result = await build({
		stdin: { contents: `export * from './${file}';`, resolveDir: ROOT, loader: 'ts' },
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'cjs',
		logLevel: 'silent',
		external: ['n8n-workflow', 'n8n-core'],
	});
	return Object.keys(result.metafile.inputs).filter((input) => /^(nodes|credentials)\//.test(input));
}
