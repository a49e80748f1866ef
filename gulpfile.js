'use strict';
// `npm run build` type-checks with tsc, then runs `gulp build`: bundle every node and
// credential with esbuild and copy icons and codex files into dist/.
const { bundle } = require('./scripts/bundle');

async function build() {
	const files = await bundle();
	console.log(`bundled ${files.length} entries into dist/`);
}

exports.build = build;
exports.default = build;
