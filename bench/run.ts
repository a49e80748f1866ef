/**
 * `npm run bench`: runs every bench/*.bench.ts (each exports `run(): Promise<void>` and prints its
 * own numbers). A benchmark, not a test: it reports, it does not assert.
 * `npm run bench -- webhook` runs only the files whose name contains "webhook".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

async function main(): Promise<void> {
	const filter = process.argv[2];
	const files = fs
		.readdirSync(__dirname)
		.filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
		.sort();
	for (const file of files) {
		console.log(`\n## ${file}`);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(path.join(__dirname, file)) as { run: () => Promise<void> };
		await mod.run();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
