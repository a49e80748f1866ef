'use strict';
// `npm pack` of the package as it would be published, without touching the working tree's dist/:
// package.json, README and LICENSE are staged next to a fresh bundle, then packed.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { bundle, ROOT } = require('./bundle.js');

/** Packs into `tmp` and returns the tarball's path. `extraJs` (tests only) is added as dist/extra.js. */
async function packStaged(tmp, { extraJs } = {}) {
	const stage = path.join(tmp, 'stage');
	fs.mkdirSync(stage);
	for (const f of ['package.json', 'README.md', 'LICENSE']) fs.copyFileSync(path.join(ROOT, f), path.join(stage, f));
	await bundle({ outdir: path.join(stage, 'dist') });
	if (extraJs) fs.copyFileSync(extraJs, path.join(stage, 'dist', 'extra.js'));
	const out = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', tmp], {
		cwd: stage,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return path.join(tmp, out.trim().split('\n').pop());
}

module.exports = { packStaged };
