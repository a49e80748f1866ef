'use strict';
// Bundles every node and credential entry into dist/ as CommonJS, one file per entry.
// Everything except node built-ins and n8n-workflow (a peer provided by n8n) is inlined,
// so the published package has no runtime dependencies.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
/** Modules n8n provides at run time; everything else must be inside the bundle. */
const EXTERNAL = ['n8n-workflow'];

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

async function bundle({ outdir = path.join(ROOT, 'dist'), minify = false } = {}) {
	fs.rmSync(outdir, { recursive: true, force: true });
	const list = entries();
	await esbuild.build({
		absWorkingDir: ROOT,
		entryPoints: list,
		outbase: ROOT,
		outdir,
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		external: EXTERNAL,
		minify,
		sourcemap: false,
		legalComments: 'inline',
		logLevel: 'warning',
	});
	// Icons: icons/*.svg -> dist/icons/ (nodes refer to them as file:../../icons/<name>.svg).
	for (const icon of listFiles('icons', (f) => f.endsWith('.svg'))) {
		const to = path.join(outdir, icon);
		fs.mkdirSync(path.dirname(to), { recursive: true });
		fs.copyFileSync(path.join(ROOT, icon), to);
	}
	// Codex files sit next to their node.
	for (const codex of listFiles('nodes', (f) => f.endsWith('.node.json'))) {
		const to = path.join(outdir, codex);
		fs.mkdirSync(path.dirname(to), { recursive: true });
		fs.copyFileSync(path.join(ROOT, codex), to);
	}
	return list.map(distPathFor);
}

module.exports = { bundle, entries, distPathFor, EXTERNAL, ROOT };
