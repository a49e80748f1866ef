/**
 * The published package has no runtime dependencies: every dist file may require only node
 * built-ins, the modules n8n itself provides to community nodes, and its own shared chunks.
 * dist/ stays within its size budget, shares code instead of copying it, keeps noble in the
 * signing entries only, and signs byte for byte as the source does.
 */
import { builtinModules } from 'node:module';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Bytes, signDigestDer } from '../../nodes/shared/gateway';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundleWithMetafile, entries, distPathFor, ZOD_AT_RUNTIME, ROOT } = require('../../scripts/bundle.js');

const N8N_PROVIDED = new Set(['n8n-workflow', ZOD_AT_RUNTIME]);
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
/**
 * 300 KB until issue 13, plus 49 KB for micro-eth-signer (EIP-1559 decoding, hashing, recovery):
 * dist/ went 295,383 -> 345,230 bytes, all in ExecutionGateway.node.js; the library's modules weigh
 * 53,117 bytes minified (micro-packed 21,766, micro-eth-signer core tx/tx-internal/rlp/address/utils
 * 27,243, @scure/base 4,108) and replaced 6,722 bytes of hand-written rlp.ts/eip1559.ts.
 * Issue 22: the QR symbol from qrcode-generator weighs 29,559 bytes bundled (Orchestration.node.js),
 * its PNG/SVG drawing (qrImage.ts) 2,556, the payment URIs (paymentUri.ts) 2,193.
 */
// Issues 26, 21 (recovery) and 22 (test events) added 28,282 bytes (337,217 -> 365,499): Standing
// Deposit Address, affiliate management and claims, Webhook > Delete (Orchestration.node.js 65,574 ->
// 86,382, mostly parameter descriptions), the trigger's delete, recovery subscription and reuse (31,233 -> 36,860).
// Issue 22 (a quote a person can pay) added 52,250 bytes on top of main's 389,154 (-> 441,404): the QR
// encoder and its drawing, payment URIs, the version 3 pickers and the second Options collection of
// Quote > Create (Refund Address moved out, the affiliate picker in), listSearch.
// Issue 23 (pacing by rate limits): the pacer, batch progress and their n8n glue; 444,313 bytes measured after merging main (1,945 over 432 KB).
// Issue 23 (Quote > Create at the HTTP Request node's pace): parameters resolved once per node run, the
// pacer's first lone request, the Quote operations' concurrency option; 2,032 bytes (444,833 -> 446,865).
// Issue 31 (Get Deposits, Pause and Resume, the claim body, Get Claim and the claim wait, nextOffset
// paging) and issue 32's payout destination check: 20,400 bytes, all in Orchestration.node.js
// (447,371 -> 467,771).
// Issue 31 (the order lifecycle): waits through unfulfilled, a replaced order's successor followed, a
// reprice approval as action required, each fee payout in its own asset; 5,126 bytes (467,771 -> 472,897:
// Orchestration.node.js +3,161, the shared chunk with orderView.ts +1,965).
// Issue 31 (the request side open to what the live service adds): chains and assets checked against the
// routes listing with the listing named (claims included), the live app-fee form and its option, the
// docs' affiliate ID rule, Create Offramp's refund rule and the offramp/onramp payable guard with their
// Expiry Margin options (each operation declares its own); 8,974 bytes (467,771 -> 476,745).
// Both merged: 481,871 bytes.
// Issue 32 (every stream wait bounded, stream openings paced, payment links only from valid addresses)
// and issue 31's paced streams: 18,986 bytes (481,871 -> 500,857). @scure/base's codecs for the
// addresses (bech32, bech32m, base58, base58check, base64) now shared by both nodes: its chunk grew
// 4,108 -> 12,707; the address rules in paymentUri.ts 5,218; the stream's pacer, bounds, parser, the
// credentials' Allow Event Stream and the descriptions about 4,600.
// Issue 32 (a hostile service, the transport): redirects refused with their error, a total deadline
// per attempt (deadline.ts, also in the gateway credential), bounded denials and endpoint keys, the
// gateway's replay evidence; 8,301 bytes (500,857 -> 509,158).
// Issues 31 to 35 in the trigger: the live header names, one verification pass over two secrets and
// their event kinds, the nesting scan, Existing Endpoint's readable amounts and recovery secret, the
// endpoint kept through n8n's delete, and their descriptions: 6,763 bytes (509,158 -> 515,921).
// Each operation declaring its own toolAction (the AI-tool list derived from them) and the Resource
// dropdowns the labels are read from: 2,739 bytes (516,225 -> 518,964), the export of the
// declaration in 17 operation modules most of it.
// The per-item ports retired and errors translated once (operations import what they use): 636 bytes
// less (518,988 -> 518,352). Affiliate > Get Payout Destinations (the operation, its description and
// the lenient reading of its answer in partnerPlan.ts): 1,606 bytes (518,352 -> 519,958).
// Issue 40 (the quote's deposit transfer verified through micro-eth-signer's ERC-20 ABI codec, in a
// chunk loaded only when an answer carries a transaction; the codec's keccak and the gateway's
// transaction code now share chunks): 36,912 bytes (519,958 -> 556,870); the payout guards, path and header rules, the previous webhook secret and their descriptions: 5,636 bytes (-> 562,506).
// Issue 41 (one request function per service over an endpoint table, operations as execute(this, i)):
// nodes/n8n 5,274 bytes less, nodes/Orchestration 6,938 more (the endpoint table, its lookup, the
// reads written out at each call site), 5,641 in all (562,592 -> 568,233).
// Issue 42 (Approve / Reject / Refund Reprice, Refund Held Deposits, Pay Link > Create, Partner > Get
// Fee Invoices, the route bounds and Check Limits, the app-fee bounds): nodes/Orchestration 16,755
// bytes, nodes/shared/orchestration 8,797, 28,330 in all (568,233 -> 596,563), most of it the new
// operations' descriptions.
// Issue 42, Partner > Check Settings (the operation, its description and the sandbox-URL check of
// settingsCheck.ts): 3,842 bytes (596,733 -> 600,575).
const BUDGET_BYTES = 590 * 1024;
/** Entries that sign (intents, the gateway challenge) and so may load noble. */
const SIGNING = ['dist/nodes/ExecutionGateway/ExecutionGateway.node.js', 'dist/credentials/ExecutionGatewayApi.credentials.js'];

interface Metafile {
	outputs: Record<string, { inputs: Record<string, unknown> }>;
}

function requiredModules(source: string): string[] {
	const found = new Set<string>();
	for (const m of source.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) found.add(m[1]);
	for (const m of source.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) found.add(m[1]);
	for (const m of source.matchAll(/^\s*import\s[^'"]*from\s+["']([^"']+)["']/gm)) found.add(m[1]);
	return [...found];
}

function jsFiles(dir: string): string[] {
	return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f));
}

/** Every dist file an entry loads, following its relative requires. */
function closure(file: string, seen = new Set<string>()): Set<string> {
	if (seen.has(file)) return seen;
	seen.add(file);
	for (const mod of requiredModules(fs.readFileSync(file, 'utf8'))) {
		if (mod.startsWith('.')) closure(path.resolve(path.dirname(file), mod), seen);
	}
	return seen;
}

/** The dist files a fresh Node process has loaded after requiring `entry` (what n8n loads at start). */
function loadedFiles(entry: string): string[] {
	const script = `require(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(require.cache)))`;
	const out = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
	return JSON.parse(out.trim().split('\n').pop() as string) as string[];
}

describe('dist bundle', () => {
	let outdir: string;
	let files: string[];
	let metafile: Metafile;
	const abs = (rel: string) => path.join(outdir, rel.replace(/^dist\//, ''));
	beforeAll(async () => {
		// Inside the repository, so the bundles resolve n8n-workflow (a peer) from node_modules as in n8n.
		outdir = fs.mkdtempSync(path.join(ROOT, '.dist-test-'));
		({ files, metafile } = await bundleWithMetafile({ outdir }));
	}, 120000);
	afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

	it('requireModules finds what a bundle would leak', () => {
		expect(requiredModules('const a = require("zod"); import("x"); require(\'node:fs\')').sort()).toEqual(
			['node:fs', 'x', 'zod'].sort(),
		);
	});

	it('writes the output schemas next to each built node file, for every node version (test/build/outputSchemas.test.ts checks them)', () => {
		for (const v of ['v1.0.0', 'v2.0.0', 'v3.0.0']) expect(fs.existsSync(path.join(outdir, `nodes/Orchestration/__schema__/${v}/quote/create.json`))).toBe(true);
		expect(fs.existsSync(path.join(outdir, 'nodes/OrchestrationTrigger/__schema__/v1.2.0.json'))).toBe(true);
	});

	it('lists every node and credential of the source tree in package.json', () => {
		const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		const listed = [...pkg.n8n.nodes, ...pkg.n8n.credentials].sort();
		expect(listed).toEqual((entries() as string[]).map(distPathFor).sort());
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('requires nothing but node built-ins, n8n-provided modules and its own files', () => {
		const offenders: string[] = [];
		for (const file of jsFiles(outdir)) {
			for (const mod of requiredModules(fs.readFileSync(file, 'utf8'))) {
				const own = mod.startsWith('.') && fs.existsSync(path.resolve(path.dirname(file), mod));
				if (!own && !BUILTINS.has(mod) && !N8N_PROVIDED.has(mod)) offenders.push(`${file}: ${mod}`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it('takes zod from n8n through its v3 subpath, never bundled', () => {
		const bundled = Object.values(metafile.outputs).flatMap((o) => Object.keys(o.inputs));
		expect(bundled.filter((i) => i.includes('node_modules/zod/'))).toEqual([]);
		expect(ZOD_AT_RUNTIME).toBe('zod/v3');
		expect(jsFiles(outdir).some((f) => fs.readFileSync(f, 'utf8').includes('require("zod/v3")'))).toBe(true);
	});

	it(`keeps all dist JavaScript within ${BUDGET_BYTES} bytes`, () => {
		const total = jsFiles(outdir).reduce((sum, f) => sum + fs.statSync(f).size, 0);
		expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
	});

	it('bundles each source module into exactly one dist file', () => {
		const owners = new Map<string, string[]>();
		for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
			for (const input of Object.keys(inputs)) owners.set(input, [...(owners.get(input) ?? []), output]);
		}
		const duplicated = [...owners].filter(([, outs]) => outs.length > 1);
		expect(duplicated).toEqual([]);
	});

	it('loads noble only from the entries that sign; the Orchestration node only once a quote carries a transaction', () => {
		const nobleFiles = Object.entries(metafile.outputs)
			.filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('node_modules/@noble/')))
			.map(([output]) => path.resolve(ROOT, output));
		expect(nobleFiles.length).toBeGreaterThan(0);
		for (const rel of files) {
			const loaded = loadedFiles(abs(rel));
			const loadsNoble = nobleFiles.some((f) => loaded.includes(f));
			expect({ rel, loadsNoble }).toEqual({ rel, loadsNoble: SIGNING.includes(rel) });
		}
		// the lazy import is there: the Orchestration node reaches noble through it
		const orchestration = abs('dist/nodes/Orchestration/Orchestration.node.js');
		expect(nobleFiles.some((f) => closure(orchestration).has(f))).toBe(true);
	});

	it('signs byte for byte as the source does', () => {
		const chunks = jsFiles(path.join(outdir, 'shared'))
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			.map((f) => require(f))
			.filter((m) => typeof m.signDigestDer === 'function');
		expect(chunks).toHaveLength(1);
		const [dist] = chunks;
		const key = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
		for (let i = 0; i < 50; i++) {
			const message = `intent ${i} ${'é'.repeat(i)}`;
			expect(dist.signDigestDer(sha256Bytes(message), key)).toBe(signDigestDer(sha256Bytes(message), key));
		}
	});

	it('exports each entry class by name, loadable with require', () => {
		for (const rel of files) {
			const className = path.basename(rel).replace(/\.(node|credentials)\.js$/, '');
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const mod = require(abs(rel));
			expect(typeof mod[className]).toBe('function');
			expect(new mod[className]()).toBeTruthy();
		}
	});
});
