#!/usr/bin/env node
// n8n's verification scanner (@n8n/scan-community-package), run locally as the published check
// does: on the source tree (its SOURCE_FILE_PATTERNS) and on the unpacked `npm pack` tarball
// (every .js file and package.json). Exits 1 with ESLint's report on any violation.
//   node scripts/scan-package.mjs              stage package.json + a fresh bundle, pack, scan
//   node scripts/scan-package.mjs <pkg.tgz>    scan that tarball (the one about to be published)
//   SCAN_EXTRA_JS=<file> ...                   add a file to dist/ before packing (tests only)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { packStaged } = createRequire(import.meta.url)('./pack.js');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

function unpack(tarball, tmp) {
	const dir = path.join(tmp, 'package');
	fs.mkdirSync(dir);
	execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
	return dir;
}

async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	console.log(`${result.passed ? 'PASS' : 'FAIL'} scanner on ${label}${result.message ? `: ${result.message}` : ''}`);
	if (result.details) console.log(result.details);
	return result.passed;
}

async function main() {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-scan-'));
	try {
		const tarball = process.argv[2]
			? path.resolve(process.argv[2])
			: await packStaged(tmp, { extraJs: process.env.SCAN_EXTRA_JS });
		const packed = await scan(`tarball ${path.basename(tarball)}`, unpack(tarball, tmp), TARBALL_PATTERNS);
		const source = await scan('source tree', ROOT, SOURCE_FILE_PATTERNS);
		process.exitCode = packed && source ? 0 : 1;
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

await main();
