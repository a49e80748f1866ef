/* eslint-disable @typescript-eslint/no-explicit-any -- answers are arbitrary JSON that the tests assert on field by field */
/**
 * Issue 43: the unsigned deposit transfer of a quote with `includeCalldata: true` (spec §2.2: "needs
 * no approval and only funds the deposit"), checked against the routes listing for every EVM source,
 * and its hostile variants on demand (a `depositTransaction` fault rule, one quote per use).
 */
import type { Sandbox } from '../../sandbox';
import { type Client, quoteBody, SERVER, start } from './helpers';

let sb: Sandbox;
let api: Client;
beforeAll(async () => ({ sb, api } = await start({ config: { switches: { tokenizedEquityAdmission: { partner_sandbox_1: true } } } as never })));
afterAll(() => sb.close());
afterEach(() => api.post('/sandbox/reset'));

interface Entry {
	id: string;
	chain: string;
	asset: string;
	decimals: number;
	contractAddress: string | null;
	chainId: string | null;
}

const ATTACKER = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0';
const MAX = 'f'.repeat(64);
const TRANSFER = 'a9059cbb';
const APPROVE = '095ea7b3';
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const word = (n: bigint | string) => (typeof n === 'bigint' ? n.toString(16) : n.slice(2).toLowerCase()).padStart(64, '0');
/** ABI call data written here from the ABI rules, not with the sandbox's encoder. */
const callData = (selector: string, to: string, amount: bigint | string) => `0x${selector}${word(to)}${typeof amount === 'string' ? amount : word(amount)}`;

async function listing(query = ''): Promise<Entry[]> {
	const r = await api.get(`/v2/orchestration/routes${query}`, { key: SERVER });
	expect(r.status).toBe(200);
	return r.body.assets;
}

const byId = async (id: string): Promise<Entry> => (await listing()).find((e) => e.id === id) as Entry;
const evmChainOf = (e: Entry) => Number(/^eip155:([0-9]+)$/.exec(e.chainId ?? '')?.[1]);

/** The honest transfer for a quote, from the listing entry and the quote's own answer. */
function honest(entry: Entry, q: { depositAddress: string; amountIn: string }): Record<string, unknown> {
	const chainId = evmChainOf(entry);
	if (entry.contractAddress === null) return { chainId, to: q.depositAddress, value: q.amountIn, data: '0x' };
	return { chainId, to: entry.contractAddress, value: '0', data: callData(TRANSFER, q.depositAddress, BigInt(q.amountIn)) };
}

const NATIVE = { sourceChain: 'base', sourceAsset: 'ETH', amount: '100000000000000000' };
const ERC20 = { sourceChain: 'base', sourceAsset: 'USDC', amount: '100000000' };

async function quote(source: Record<string, unknown>, extra: Record<string, unknown> = { includeCalldata: true }, idem?: string) {
	const r = await api.post('/v1/orchestration/quote', quoteBody({ ...source, ...extra }), { key: SERVER, idem });
	expect(r.status).toBe(200);
	return r;
}

async function rule(depositTransaction: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	const r = await api.post('/sandbox/faults', { path: '/v1/orchestration/quote', mode: 'depositTransaction', depositTransaction, ...extra });
	expect(r.status).toBe(201);
	return r.body;
}

const faults = async () => (await api.get('/sandbox/faults')).body.faults as any[];

describe('the honest deposit transfer (spec §2.2) matches the routes listing', () => {
	it('every EVM asset of the listing carries contractAddress (null for natives), decimals and chainId, the large catalogue and equities included', async () => {
		await api.post('/sandbox/config', { largeCatalogue: true });
		for (const version of ['v2', 'v1']) {
			const entries = version === 'v2' ? await listing() : (await api.get('/v1/orchestration/routes', { key: SERVER })).body.assets as Entry[];
			const evm = entries.filter((e) => e.chainId?.startsWith('eip155:'));
			expect(evm.length).toBeGreaterThan(1000);
			const nativesByChain = new Map<string, string[]>();
			for (const e of evm) {
				expect({ id: e.id, keys: ['contractAddress', 'decimals', 'chainId'].every((k) => Object.hasOwn(e, k)) }).toEqual({ id: e.id, keys: true });
				expect({ id: e.id, chainId: /^eip155:[1-9][0-9]*$/.test(e.chainId as string), decimals: Number.isInteger(e.decimals) && e.decimals >= 0 && e.decimals <= 36 })
					.toEqual({ id: e.id, chainId: true, decimals: true });
				if (e.contractAddress === null) nativesByChain.set(e.chain, [...(nativesByChain.get(e.chain) ?? []), e.asset]);
				else expect({ id: e.id, contract: EVM_ADDRESS.test(e.contractAddress) }).toEqual({ id: e.id, contract: true });
			}
			// at most one native per chain, and every chain's entries agree on its chain id
			for (const [chain, natives] of nativesByChain) expect({ chain, natives: natives.length }).toEqual({ chain, natives: 1 });
			for (const e of evm) expect({ id: e.id, chainId: e.chainId }).toEqual({ id: e.id, chainId: evm.find((x) => x.chain === e.chain)?.chainId });
			// an asset with an EVM contract address is on an EVM chain (HyperCore's token ids are not EVM addresses)
			for (const e of entries) if (e.contractAddress !== null && EVM_ADDRESS.test(e.contractAddress)) expect({ id: e.id, chainId: e.chainId?.startsWith('eip155:') }).toEqual({ id: e.id, chainId: true });
		}
	});

	it('for every EVM source of the listing: native pays the deposit address amountIn with no data; ERC-20 calls transfer(depositAddress, amountIn) on the listed contract with value 0; chainId the listing\'s', async () => {
		const entries = await listing();
		const evm = entries.filter((e) => e.chainId?.startsWith('eip155:'));
		const tried: string[] = [];
		for (const source of evm) {
			const limits = (await api.get(`/v1/orchestration/limits?sourceChain=${source.chain}&sourceAsset=${encodeURIComponent(source.asset)}`, { key: SERVER })).body.routes as any[];
			const route = limits.find((l) => l.destinationChain === 'bitcoin') ?? limits.find((l) => l.destinationChain !== source.chain && entries.some((e) => e.chain === l.destinationChain && e.chainId?.startsWith('eip155:')));
			if (source.id === 'bsc:WBNB') {
				expect(limits).toEqual([]); // the listing's one source without a destination
				continue;
			}
			expect({ id: source.id, route: route !== undefined }).toEqual({ id: source.id, route: true });
			const recipientAddress = route.destinationChain === 'bitcoin' ? 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' : '0x1111111111111111111111111111111111111111';
			const amount = (BigInt(route.minAmount) * 3n).toString();
			const r = await api.post('/v1/orchestration/quote', {
				sourceChain: source.chain, sourceAsset: source.asset, destinationChain: route.destinationChain, destinationAsset: route.destinationAsset,
				amount, recipientAddress, includeCalldata: true,
			}, { key: SERVER });
			expect({ id: source.id, status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({ id: source.id, status: 200, text: '' });
			expect(r.body.amountIn).toBe(amount);
			expect({ id: source.id, tx: r.body.depositTransaction }).toEqual({ id: source.id, tx: honest(source, r.body) });
			tried.push(source.id);
		}
		expect(tried.length).toBe(evm.length - 1);
		expect(tried).toEqual(expect.arrayContaining(['base:ETH', 'base:USDC', 'bsc:BNB', 'robinhood:AAPL', 'hyperevm:USD₮0']));
	});

	it('an exact_out quote funds its rounded-up amountIn; no calldata requested, no transfer', async () => {
		const r = await quote(ERC20, { includeCalldata: true, amountMode: 'exact_out', destinationChain: 'lightning', destinationAsset: 'BTC', amount: '100000', recipientAddress: 'sandbox@example.com', refundAddress: '0x1111111111111111111111111111111111111111' });
		expect(r.body.depositTransaction).toEqual(honest(await byId('base:USDC'), r.body));
		expect((await quote(ERC20, {})).body.depositTransaction).toBeUndefined();
	});

	it('refuses calldata for sources without an EVM chain id (HyperCore, Solana): calldata_unsupported_source', async () => {
		for (const source of [{ sourceChain: 'hypercore', sourceAsset: 'USDC', amount: '10000000000' }, { sourceChain: 'solana', sourceAsset: 'SOL', amount: '1000000000' }]) {
			const r = await api.post('/v1/orchestration/quote', quoteBody({ ...source, includeCalldata: true }), { key: SERVER });
			expect([r.status, r.body.error.code]).toEqual([400, 'calldata_unsupported_source']);
		}
	});
});

describe('hostile deposit transfers on demand (fault mode depositTransaction, one quote per use)', () => {
	/** What each variant changes, from the honest transfer, for an ERC-20 and a native source (undefined: the variant needs a token). */
	const expected: Record<string, (h: any, q: any) => { erc20: any; native?: any }> = {
		approve: (h) => ({ erc20: { ...h, data: callData(APPROVE, ATTACKER, MAX) } }),
		recipient: (h, q) => ({ erc20: { ...h, data: callData(TRANSFER, ATTACKER, BigInt(q.amountIn)) }, native: { ...h, to: ATTACKER } }),
		amount: (h, q) => ({ erc20: { ...h, data: callData(TRANSFER, q.depositAddress, BigInt(q.amountIn) + 1n) }, native: { ...h, value: (BigInt(q.amountIn) + 1n).toString() } }),
		token: (h) => ({ erc20: { ...h, to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA0291a' } }),
		chainId: (h) => ({ erc20: { ...h, chainId: 1 }, native: { ...h, chainId: 1 } }),
		extraData: (h) => ({ erc20: { ...h, data: `${h.data}${word(ATTACKER)}` }, native: { ...h, data: `0x${word(ATTACKER)}` } }),
		erc20Value: (h, q) => ({ erc20: { ...h, value: q.amountIn } }),
	};

	it.each(Object.keys(expected))('%s: the next quote carries it, the one after is honest again', async (variant) => {
		for (const [kind, source, id] of [['erc20', ERC20, 'base:USDC'], ['native', NATIVE, 'base:ETH']] as const) {
			const entry = await byId(id);
			await rule({ variant });
			const q = await quote(source);
			const want = expected[variant](honest(entry, q.body), q.body)[kind];
			if (want === undefined) {
				// a token-only variant leaves a native quote honest and the rule waiting for a token quote
				expect({ kind, tx: q.body.depositTransaction }).toEqual({ kind, tx: honest(entry, q.body) });
				expect((await faults()).map((f) => [f.depositTransaction.variant, f.applied])).toEqual([[variant, 0]]);
				await api.del('/sandbox/faults');
				continue;
			}
			expect({ kind, tx: q.body.depositTransaction }).toEqual({ kind, tx: want });
			expect({ kind, differs: q.body.depositTransaction }).not.toEqual({ kind, differs: honest(entry, q.body) });
			expect(await faults()).toEqual([]);
			const next = await quote(source);
			expect(next.body.depositTransaction).toEqual(honest(entry, next.body));
		}
	});

	it('the stored quote keeps what was answered: an idempotent replay answers the same hostile transfer and spends no further use', async () => {
		await rule({ variant: 'approve' }, { times: 2 });
		const first = await quote(ERC20, { includeCalldata: true }, 'replay-1');
		const again = await quote(ERC20, { includeCalldata: true }, 'replay-1');
		expect(again.headers.get('x-idempotency-replayed')).toBe('true');
		expect(again.body.depositTransaction).toEqual(first.body.depositTransaction);
		expect(first.body.depositTransaction.data.slice(0, 10)).toBe(`0x${APPROVE}`);
		expect((await faults()).map((f) => f.applied)).toEqual([1]);
		const stored = (await api.get('/sandbox/quotes')).body.quotes.find((x: any) => x.quoteId === first.body.quoteId);
		expect(JSON.stringify(stored)).toContain(first.body.depositTransaction.data);
	});

	it('under another member name: unsignedTransaction, or nested under calldata; depositTransaction is then absent', async () => {
		const entry = await byId('base:USDC');
		await rule({ variant: 'honest', member: 'unsignedTransaction' });
		const moved = await quote(ERC20);
		expect(moved.body.depositTransaction).toBeUndefined();
		expect(moved.body.unsignedTransaction).toEqual(honest(entry, moved.body));
		await rule({ variant: 'recipient', member: 'calldata.transaction' });
		const nested = await quote(ERC20);
		expect(nested.body.depositTransaction).toBeUndefined();
		expect(nested.body.calldata).toEqual({ transaction: { ...honest(entry, nested.body), data: callData(TRANSFER, ATTACKER, BigInt(nested.body.amountIn)) } });
	});

	it('two transaction members, one honest (depositTransaction) and one not', async () => {
		const entry = await byId('base:USDC');
		await rule({ variant: 'approve', member: 'unsignedTransaction', keepHonest: true, attacker: '0x2222222222222222222222222222222222222222' });
		const q = await quote(ERC20);
		expect(q.body.depositTransaction).toEqual(honest(entry, q.body));
		expect(q.body.unsignedTransaction).toEqual({ ...honest(entry, q.body), data: callData(APPROVE, '0x2222222222222222222222222222222222222222', MAX) });
	});

	it('also on a quote that asked for no calldata (a transfer the spec says is absent)', async () => {
		await rule({ variant: 'recipient' });
		const q = await quote(NATIVE, {});
		expect(q.body.depositTransaction).toMatchObject({ to: ATTACKER, value: q.body.amountIn });
	});

	it('chainId in each honest form: number, decimal text, hex text, the listing\'s CAIP text; the chainId variant keeps the form', async () => {
		const forms: Record<string, unknown> = { number: 8453, decimal: '8453', hex: '0x2105', caip: 'eip155:8453' };
		for (const [chainIdForm, chainId] of Object.entries(forms)) {
			await rule({ variant: 'honest', chainIdForm });
			expect((await quote(NATIVE)).body.depositTransaction.chainId).toEqual(chainId);
		}
		expect((await byId('base:ETH')).chainId).toBe(forms.caip);
		await rule({ variant: 'chainId', chainIdForm: 'caip' });
		expect((await quote(NATIVE)).body.depositTransaction.chainId).toBe('eip155:1');
		await rule({ variant: 'chainId' });
		expect((await quote({ sourceChain: 'ethereum', sourceAsset: 'ETH', amount: '100000000000000000' })).body.depositTransaction.chainId).toBe(8453);
	});

	it('a quote the rule cannot apply to (non-EVM source, a failed quote) spends no use; times and skip work as for every fault', async () => {
		await rule({ variant: 'recipient' }, { times: 'always', skip: 1 });
		const sol = await api.post('/v1/orchestration/quote', quoteBody({ sourceChain: 'solana', sourceAsset: 'SOL', amount: '1000000000' }), { key: SERVER });
		expect(sol.status).toBe(200);
		expect(sol.body.depositTransaction).toBeUndefined();
		expect((await api.post('/v1/orchestration/quote', quoteBody({ amount: '1' }), { key: SERVER })).status).toBe(400);
		expect((await faults()).map((f) => [f.skipped, f.applied])).toEqual([[0, 0]]);
		const skipped = await quote(NATIVE);
		expect(skipped.body.depositTransaction.to).toBe(skipped.body.depositAddress);
		for (let i = 0; i < 3; i++) expect((await quote(NATIVE)).body.depositTransaction.to).toBe(ATTACKER);
		expect((await faults()).map((f) => [f.skipped, f.applied])).toEqual([[1, 3]]);
	});

	it('the offramp takes the rule on its own path', async () => {
		await api.post('/sandbox/faults', { path: '/v1/orchestration/offramp', mode: 'depositTransaction', depositTransaction: { variant: 'approve' } });
		const r = await api.post('/v1/orchestration/offramp', { ...ERC20, recipientAddress: '$sandbox', refundAddress: '0x1111111111111111111111111111111111111111', refundChain: 'base' }, { key: SERVER });
		expect(r.status).toBe(200);
		expect(r.body.depositTransaction.data.slice(0, 10)).toBe(`0x${APPROVE}`);
	});

	it('refuses malformed rules (400 naming the field)', async () => {
		const bad = [
			{ mode: 'depositTransaction' },
			{ mode: 'status', depositTransaction: { variant: 'approve' } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'steal' } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'approve', member: '__proto__' } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'approve', member: 'calldata.constructor' } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'approve', member: 'a.b.c.d.e' } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'approve', keepHonest: true } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'approve', attacker: '0x12' } },
			{ mode: 'depositTransaction', depositTransaction: { variant: 'approve', extra: 1 } },
		];
		for (const body of bad) {
			const r = await api.post('/sandbox/faults', { path: '/v1/orchestration/quote', ...body });
			expect({ body, status: r.status }).toEqual({ body, status: 400 });
			expect(r.text).toContain('depositTransaction');
		}
		expect(await faults()).toEqual([]);
	});
});
