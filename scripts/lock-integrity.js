#!/usr/bin/env node
'use strict';
/**
 * Every package in package-lock.json must carry an integrity hash, so `npm ci` refuses a tampered
 * tarball. The registry these machines reach lacks some optional platform builds (for example
 * @swc/core-darwin-arm64), which npm then cannot record with a hash. This drops those optional
 * entries and their names from their parents' optionalDependencies (npm ci on Linux accepts it;
 * the Linux builds keep their hashes), and fails if any other entry lacks an integrity hash.
 * Run after `npm install` changes the lock: `node scripts/lock-integrity.js` (`--check` only checks).
 */
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');

/** Lock entries (path -> entry) that npm installs from a tarball but records without a hash. */
function withoutIntegrity(packages) {
	return Object.entries(packages).filter(([where, entry]) => where !== '' && !entry.link && !entry.integrity);
}

function dropOptional(packages, unhashed) {
	const dropped = new Set();
	for (const [where, entry] of unhashed) {
		if (!entry.optional) continue;
		delete packages[where];
		dropped.add(where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
	}
	for (const entry of Object.values(packages)) {
		for (const name of Object.keys(entry.optionalDependencies ?? {})) {
			if (dropped.has(name)) delete entry.optionalDependencies[name];
		}
	}
	return dropped.size;
}

function main() {
	const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
	const unhashed = withoutIntegrity(lock.packages);
	if (!process.argv.includes('--check') && unhashed.length > 0) {
		const dropped = dropOptional(lock.packages, unhashed);
		fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
		console.log(`lock-integrity: dropped ${dropped} optional entries the registry has no tarball for`);
	}
	const left = withoutIntegrity(lock.packages).map(([where]) => where);
	if (left.length > 0) {
		console.error(`lock-integrity: entries without an integrity hash:\n  ${left.join('\n  ')}`);
		process.exitCode = 1;
	}
}

main();
