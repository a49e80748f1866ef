'use strict';
// Bundles every node and credential entry into dist/ as CommonJS. Code used by several entries
// (the protocol core, the transport, noble for the signing entries) goes once into dist/shared/
// chunks that entries require by relative path. n8n provides n8n-workflow and zod at run time.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
/** Modules n8n provides at run time; everything else must be inside the bundle. */
const EXTERNAL = ['n8n-workflow'];
/** zod 3.25 and zod 4 both serve the v3 API at this subpath, so n8n moving to zod 4 keeps it working. */
const ZOD_AT_RUNTIME = 'zod/v3';
const TARGET = 'node20';
/** Whitespace and syntax minified, names kept: readable stack traces, dist/ within its 349 KB budget. */
const COMPACT = { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false };

function listFiles(dir, predicate) {
	const abs = path.join(ROOT, dir);
	if (!fs.existsSync(abs)) return [];
	return fs
		.readdirSync(abs, { recursive: true })
		.map((f) => path.join(dir, String(f)))
		.filter((f) => predicate(f) && fs.statSync(path.join(ROOT, f)).isFile())
		.sort();
}

/** Source entries: nodes/<Name>/<Name>.node.ts and credentials/<Name>.credentials.ts. */
function entries() {
	return [
		...listFiles('nodes', (f) => f.endsWith('.node.ts')),
		...listFiles('credentials', (f) => f.endsWith('.credentials.ts')),
	];
}

/** The dist path n8n loads for a source entry, as listed in package.json's n8n section. */
function distPathFor(entry) {
	return path.join('dist', entry.replace(/\.ts$/, '.js')).split(path.sep).join('/');
}

/** `zod` (any subpath) resolves to n8n's own zod through its stable v3 entry. */
const zodFromN8n = {
	name: 'zod-from-n8n',
	setup(build) {
		build.onResolve({ filter: /^zod(\/.*)?$/ }, () => ({ path: ZOD_AT_RUNTIME, external: true }));
	},
};

/**
 * noble's randomBytes reads `globalThis.crypto`, a global n8n's scanner forbids. A module-scoped
 * `globalThis` holding node:crypto's webcrypto shadows it; signing never draws randomness (RFC 6979).
 */
const nobleRandomFromNodeCrypto = {
	name: 'noble-random-from-node-crypto',
	setup(build) {
		build.onLoad({ filter: /[\\/]@noble[\\/]hashes[\\/]utils\.js$/ }, async (args) => ({
			contents:
				"import { webcrypto as nodeWebcrypto } from 'node:crypto';\n" +
				'const globalThis = { crypto: nodeWebcrypto };\n' +
				(await fs.promises.readFile(args.path, 'utf8')),
			loader: 'js',
		}));
	},
};

/** esbuild splits shared code only for ESM; each output file is then converted to CommonJS. */
async function buildEsm(list, outdir) {
	const result = await esbuild.build({
		absWorkingDir: ROOT,
		entryPoints: list,
		outbase: ROOT,
		outdir,
		bundle: true,
		splitting: true,
		chunkNames: 'shared/[name]-[hash]',
		write: false,
		metafile: true,
		platform: 'node',
		target: TARGET,
		format: 'esm',
		external: EXTERNAL,
		plugins: [zodFromN8n, nobleRandomFromNodeCrypto],
		...COMPACT,
		sourcemap: false,
		legalComments: 'inline',
		logLevel: 'warning',
	});
	return result;
}

async function writeCommonJs(file) {
	const { code } = await esbuild.transform(file.text, {
		format: 'cjs',
		// 'neutral', not 'node': no `0&&(module.exports={...})` annotation listing every export again
		// (dead code for Node's ESM import of CommonJS; n8n require()s its nodes): 2,497 bytes of dist/.
		platform: 'neutral',
		target: TARGET,
		legalComments: 'inline',
		...COMPACT,
	});
	fs.mkdirSync(path.dirname(file.path), { recursive: true });
	fs.writeFileSync(file.path, code);
}

function copyAssets(outdir) {
	// Icons (nodes refer to them as file:../../icons/<name>.svg) and the codex file next to each node.
	const assets = [...listFiles('icons', (f) => f.endsWith('.svg')), ...listFiles('nodes', (f) => f.endsWith('.node.json'))];
	for (const asset of assets) {
		const to = path.join(outdir, asset);
		fs.mkdirSync(path.dirname(to), { recursive: true });
		fs.copyFileSync(path.join(ROOT, asset), to);
	}
}

/**
 * The output-schema generator (scripts/lib/outputSchemas.ts, TypeScript like the nodes whose
 * descriptions it reads), compiled in memory and loaded here; n8n-workflow resolves from node_modules.
 */
async function outputSchemaGenerator() {
	const { outputFiles } = await esbuild.build({
		absWorkingDir: ROOT,
		entryPoints: ['scripts/lib/outputSchemas.ts'],
		bundle: true,
		write: false,
		platform: 'node',
		target: TARGET,
		format: 'cjs',
		external: EXTERNAL,
		plugins: [zodFromN8n],
		logLevel: 'warning',
	});
	const module = { exports: {} };
	new Function('module', 'exports', 'require', outputFiles[0].text)(module, module.exports, require);
	return module.exports;
}

/**
 * The output schemas n8n reads next to each node file, for every node version: the committed schema
 * of each operation (npm run schemas), without the fields a version did not have yet.
 */
async function writeOutputSchemas(outdir) {
	return (await outputSchemaGenerator()).writeOutputSchemas(ROOT, outdir);
}

/** Builds dist/ and returns the dist paths of the entries and esbuild's metafile (inputs per output). */
async function bundleWithMetafile({ outdir = path.join(ROOT, 'dist') } = {}) {
	fs.rmSync(outdir, { recursive: true, force: true });
	const list = entries();
	const { outputFiles, metafile } = await buildEsm(list, outdir);
	for (const file of outputFiles) await writeCommonJs(file);
	copyAssets(outdir);
	await writeOutputSchemas(outdir);
	return { files: list.map(distPathFor), metafile };
}

async function bundle(options) {
	return (await bundleWithMetafile(options)).files;
}

module.exports = { bundle, bundleWithMetafile, entries, distPathFor, outputSchemaGenerator, EXTERNAL, ZOD_AT_RUNTIME, ROOT };
