#!/usr/bin/env node
'use strict';
/**
 * The npm registry these machines reach lacks some platform builds of optional native packages
 * (for example @swc/core-darwin-arm64 or @unrs/resolver-binding-*), so `npm install` cannot record
 * them and `npm ci` then refuses the lock file ("Missing: ... from lock file"). This adds each
 * missing optional platform package to package-lock.json as an optional entry with its os/cpu, the
 * way a lock made against the full registry has it; npm skips them on other platforms.
 * Run after `npm install` changes the lock: `node scripts/lock-platform-stubs.js`.
 */
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32', 'mips64el'];

function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	const os = parts.find((p) => OS.includes(p));
	const cpu = parts.find((p) => CPU.includes(p));
	const libc = parts.find((p) => p === 'gnu' || p === 'musl' || p === 'gnueabihf' || p === 'musleabihf' || p === 'msvc');
	return { os, cpu, libc };
}

let added = 0;
for (const [where, entry] of Object.entries(packages)) {
	for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const hoisted = `node_modules/${dep}`;
		const nested = `${where ? `${where}/` : ''}node_modules/${dep}`;
		if (packages[hoisted] || packages[nested]) continue;
		const { os, cpu, libc } = platformOf(dep);
		if (!os && !cpu) continue; // not a platform build: leave it to npm
		packages[hoisted] = {
			version,
			...(cpu ? { cpu: [cpu] } : {}),
			dev: true,
			license: entry.license ?? 'MIT',
			optional: true,
			...(os ? { os: [os] } : {}),
			...(libc === 'gnu' || libc === 'musl' ? { libc: [libc === 'gnu' ? 'glibc' : 'musl'] } : {}),
		};
		added++;
	}
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, '\t').replace(/\t/g, '  ')}\n`);
console.log(`lock-platform-stubs: added ${added} optional platform entries`);
