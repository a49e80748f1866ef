/**
 * The request side against what the live service adds (public-notes "Chains", app fees, affiliate
 * IDs, the refund rule), over HTTP against the sandbox: a chain outside spec §2.1's list (stellar)
 * in every request and routing key, refused with the listing's name when the listing does not offer
 * it, sent when the listing cannot be read; app fees in the live form; the docs' affiliate ID rule;
 * Create Offramp and Create Onramp guarded like Quote > Create.
 */
import type { INodeParameters } from 'n8n-workflow';
import { clearRoutesCache } from '../../../nodes/Orchestration/helpers/routes';
import { SandboxClock } from '../../../sandbox/clock';
import type { Sandbox } from '../../../sandbox';
import { ADDR, control, items, loadOptions, orchestrationNode, quoteParams, run, runError, startTestSandbox } from '../../harness/orchestration';

/** The sandbox's wall clock, shifted by `skewMs`: answers it gives now expire `skewMs` earlier for the node. */
class SkewedClock extends SandboxClock {
	skewMs = 0;
	now(): number {
		return Date.now() + this.skewMs;
	}
}

/** A Stellar account id (G + 55 base32 characters), as the sandbox checks them. */
const STELLAR = `G${'A'.repeat(55)}`;
const clock = new SkewedClock(1);
let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ clock });
});
afterAll(() => sb.close());
beforeEach(async () => {
	clock.skewMs = 0;
	await control(sb).clearRequests();
	await control(sb).clearFaults();
});

const posts = async (path: string) => await control(sb).requests({ path, method: 'POST' });
const node = (parameters: INodeParameters, extra: { typeVersion?: number; continueOnFail?: boolean; executionId?: string } = {}) => orchestrationNode({ sb, parameters, ...extra });
const stellarQuote = (overrides: INodeParameters = {}) =>
	quoteParams({ sourceChain: 'stellar', sourceAsset: 'USDC', amountFormat: 'decimal', amount: '12.5', ...overrides });
const offramp = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'quote',
	operation: 'createOfframp',
	sourceChain: 'base',
	sourceAsset: 'USDC',
	amountFormat: 'decimal',
	amount: '50',
	recipientAddress: '$alice',
	options: { refundAddress: ADDR.evm },
	...overrides,
});
const onramp = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'order',
	operation: 'createOnramp',
	destinationChain: 'base',
	destinationAsset: 'USDC',
	recipientAddress: ADDR.evm,
	amountType: 'amount',
	amountFormat: 'smallestUnit',
	amount: '25000',
	...overrides,
});

describe('a chain outside the spec\'s list that the routes listing offers (stellar)', () => {
	it('shows in the dropdowns, with its assets (a symbol, or a routing key for one the spec does not list)', async () => {
		const chains = await loadOptions(node(quoteParams()), 'getSourceChains');
		expect(chains).toContainEqual({ name: 'Stellar', value: 'stellar', description: 'stellar' });
		const assets = await loadOptions(node(quoteParams({ sourceChain: 'stellar' })), 'getSourceAssets');
		expect(assets.map((a) => a.value).sort()).toEqual(['USDC', 'stellar:XLM']);
	});

	it('is quoted from the dropdown values and from a routing key, with the listing\'s decimals, and the quote is payable', async () => {
		const [quote] = await run(node(stellarQuote()));
		expect(quote).toMatchObject({ sourceChain: 'stellar', sourceAsset: 'USDC', amountIn: '125000000', amountInFormatted: '12.5', replayed: false, depositMemoRequired: true });
		expect(quote.secondsUntilExpiry).toBeGreaterThan(100);
		const [keyed] = await run(node(stellarQuote({ sourceAsset: { __rl: true, mode: 'id', value: 'stellar:XLM' } })));
		expect(keyed).toMatchObject({ sourceAsset: 'XLM', amountIn: '125000000' });
		expect((await posts('/v1/orchestration/quote')).map((p) => [p.body.sourceChain, p.body.sourceAsset])).toEqual([
			['stellar', 'USDC'],
			['stellar', 'stellar:XLM'],
		]);
	});

	it('works in estimates, offramps, onramps, standing addresses and affiliate payouts', async () => {
		const [estimate] = await run(node({ ...stellarQuote(), operation: 'estimate' }));
		expect(estimate).toMatchObject({ amountIn: '125000000' });
		const [off] = await run(node(offramp({ sourceChain: 'stellar', sourceAsset: 'USDC', options: { refundAddress: STELLAR } })));
		expect(off).toMatchObject({ amountIn: '500000000', replayed: false });
		const [on] = await run(node(onramp({ destinationChain: 'stellar', destinationAsset: 'USDC', recipientAddress: STELLAR })));
		expect(on.orderId).toEqual(expect.any(String));
		const standing = { resource: 'standingAddress', operation: 'createOrGet', reference: 'stellar-customer', destinationChain: 'stellar', destinationAsset: 'USDC', destinationAddress: STELLAR };
		expect((await run(node(standing)))[0]).toMatchObject({ reference: 'stellar-customer', enabled: true });
		const upsert = { resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_stellar', feeBps: 30, payoutChain: 'stellar', payoutAsset: 'USDC', payoutAddress: STELLAR };
		expect((await run(node(upsert)))[0]).toMatchObject({ affiliateId: 'aff_stellar', payoutChain: 'stellar' });
	});

	it('works in a claim\'s settlement balance and payout (stellar accrued, paid on stellar)', async () => {
		const accrued = await fetch(`${sb.orchestrationUrl}/sandbox/affiliates/aff_sandbox_alpha/accrue`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ amount: '30000000', chain: 'stellar', asset: 'USDC' }),
		});
		expect(accrued.status).toBe(201);
		const options = { settlementChain: 'stellar', settlementAsset: 'USDC', payoutChain: 'stellar', payoutAsset: 'USDC', payoutAddress: STELLAR, allowPayoutChange: true };
		const [claim] = await run(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options }));
		// 3 USDC in stellar:USDC's 7 decimals
		expect(claim).toMatchObject({ settlementChain: 'stellar', payoutChain: 'stellar', amount: '30000000', amountFormatted: '3' });
		const unlisted = await runError(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options: { ...options, payoutChain: 'foo' } }));
		expect(unlisted.message).toMatch(/^Invalid "payoutChain" in item 0: "foo" is not a chain the routes listing offers/);
		expect(await posts('/v1/affiliates/aff_sandbox_alpha/claim')).toHaveLength(1);
	});

	it('a chain or asset the listing does not offer is refused before any request, naming the field, the item and the listing', async () => {
		const params = quoteParams({ sourceChain: '={{ $json.chain }}' });
		const error = await runError(node(params), items(2, (i) => ({ chain: ['base', 'foo'][i] })));
		expect(error.message).toMatch(/^Invalid "sourceChain" in item 1: "foo" is not a chain the routes listing offers \(GET \/v2\/orchestration\/routes lists \d+: .*\)$/);
		expect(error.message).toContain('stellar');
		const asset = await runError(node(stellarQuote({ sourceAsset: 'EURC' })));
		expect(asset.message).toBe('Invalid "sourceAsset" in item 0: "EURC" is not an asset the routes listing offers on stellar (GET /v2/orchestration/routes lists there: stellar:XLM, stellar:USDC)');
		const keyed = await runError(node(quoteParams({ destinationAsset: { __rl: true, mode: 'id', value: 'foo:BTC' } })));
		expect(keyed.message).toMatch(/^Invalid "destinationAsset" in item 0: "foo:BTC" names the chain "foo", which the routes listing does not offer/);
		const payout = { resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_x', feeBps: 30, payoutChain: 'foo', payoutAsset: 'USDC', payoutAddress: ADDR.evm };
		expect((await runError(node(payout))).message).toMatch(/^Invalid "payoutChain" in item 0: "foo" is not a chain the routes listing offers/);
		// item 0 (base) went out; nothing with an unoffered value did
		expect((await control(sb).requests()).filter((r) => r.method !== 'GET').map((r) => r.body.sourceChain)).toEqual(['base']);
	});

	it('goes out syntax-checked only when the listing cannot be read; the service decides', async () => {
		clearRoutesCache();
		await control(sb).fault({ method: 'GET', path: '/v2/orchestration/routes', mode: 'status', status: 404, code: 'not_found', times: 'always' });
		const params = quoteParams({ sourceChain: 'newchain', sourceAsset: 'NEWCOIN', amountFormat: 'smallestUnit', amount: '5' });
		const error = await runError(node(params));
		expect(error.message).toMatch(/unsupported_route/);
		const [post] = await posts('/v1/orchestration/quote');
		expect(post.body).toMatchObject({ sourceChain: 'newchain', sourceAsset: 'NEWCOIN', amount: '5' });
		// a value that is no chain name at all is still refused before sending
		await control(sb).clearRequests();
		expect((await runError(node(quoteParams({ sourceChain: 'New Chain' })))).message).toMatch(/^Invalid "sourceChain" in item 0: "New Chain" is not a chain name/);
		expect(await posts('/v1/orchestration/quote')).toEqual([]);
		await control(sb).clearFaults();
		clearRoutesCache();
	});
});

describe('app fees in the live service\'s form (public-notes: {recipient, fee} in requests)', () => {
	it('the spec\'s {recipient, feeBps} by default; {recipient, fee} with App Fee Form "Live Service"', async () => {
		const fees = { fee: [{ recipient: ADDR.evm, feeBps: 25 }] };
		await run(node(quoteParams({ options: { appFees: fees } })));
		await run(node(quoteParams({ options: { appFees: fees, appFeeForm: 'fee' } })));
		expect((await posts('/v1/orchestration/quote')).map((p) => p.body.appFees)).toEqual([[{ recipient: ADDR.evm, feeBps: 25 }], [{ recipient: ADDR.evm, fee: 25 }]]);
	});

	it('the live form in Additional Body Fields passes the node\'s own checks and reaches the service', async () => {
		const additionalFields = JSON.stringify({ appFees: [{ recipient: ADDR.evm, fee: 25 }] });
		const [quote] = await run(node(quoteParams({ options: { additionalFields } })));
		expect(quote.appFeeAmount).toEqual(expect.any(String));
		expect((await posts('/v1/orchestration/quote'))[0].body.appFees).toEqual([{ recipient: ADDR.evm, fee: 25 }]);
		const both = JSON.stringify({ appFees: [{ recipient: ADDR.evm, fee: 25, feeBps: 25 }] });
		expect((await runError(node(quoteParams({ options: { additionalFields: both } })))).message).toMatch(/^Invalid "appFees\[0\]\.feeBps" in item 0: give the fee once/);
	});
});

describe('affiliate IDs by the docs\' rule (trimmed, lowercased, ^[a-z0-9][a-z0-9_-]{0,63}$)', () => {
	it('sends quote, onramp and standing-address IDs trimmed and lowercased', async () => {
		const picker = { __rl: true, mode: 'id', value: ' AFF_Sandbox_Alpha ' };
		await run(node(quoteParams({ options: { affiliateId: picker } })));
		await run(node(quoteParams({ options: { affiliateIds: { affiliate: [{ affiliateId: 'AFF_SANDBOX_ALPHA', feeBps: '5' }] } } })));
		const quoted = await posts('/v1/orchestration/quote');
		expect(quoted.map((p) => p.body.affiliateId ?? p.body.affiliateIds)).toEqual(['aff_sandbox_alpha', [{ affiliateId: 'aff_sandbox_alpha', feeBps: 5 }]]);
		await run(node(onramp({ options: { affiliateId: 'Aff_Sandbox_Alpha' } })));
		expect((await posts('/v1/orchestration/onramp'))[0].body.affiliateId).toBe('aff_sandbox_alpha');
		const standing = { resource: 'standingAddress', operation: 'createOrGet', reference: 'case-ref', destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: ADDR.evm, options: { affiliateIds: { affiliate: [{ affiliateId: ' AFF_SANDBOX_ALPHA' }] } } };
		expect((await run(node(standing)))[0].affiliateIds).toEqual(['aff_sandbox_alpha']);
	});

	it('affiliate operations address the normalized ID', async () => {
		const claims = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: ' AFF_SANDBOX_ALPHA ', returnAll: true }));
		expect(Array.isArray(claims)).toBe(true);
		const [get] = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claims' });
		expect(get.method).toBe('GET');
	});

	it('refuses an ID outside the rule before any request, naming the field and the item', async () => {
		const dotted = await runError(node(quoteParams({ options: { affiliateId: { __rl: true, mode: 'id', value: 'aff.sandbox' } } })));
		expect(dotted.message).toMatch(/^Invalid "affiliateId" in item 0: must be an affiliate ID: 1 to 64 letters, digits, "_" or "-", starting with a letter or digit \(trimmed and lowercased first\)/);
		const long = await runError(node({ resource: 'affiliate', operation: 'disable', affiliateId: 'a'.repeat(65) }));
		expect(long.message).toMatch(/^Invalid "affiliateId" in item 0: "a{40}"\.\.\. is not an affiliate ID/);
		expect((await control(sb).requests()).filter((r) => r.method !== 'GET')).toEqual([]);
	});
});

describe('Create Offramp: the refund rule of a Lightning destination (public-notes)', () => {
	it('without a refund address is refused before any request', async () => {
		const error = await runError(node(offramp({ options: {} })));
		expect(error.message).toMatch(/^Invalid "refundAddress" in item 0: is required for Lightning destinations \(this operation always pays out on lightning\): give an address on the source chain \(base\)/);
		expect(await posts('/v1/orchestration/offramp')).toEqual([]);
	});

	it('sends the refund address with its chain, the source chain; another chain is refused', async () => {
		await run(node(offramp()));
		expect((await posts('/v1/orchestration/offramp'))[0].body).toMatchObject({ refundAddress: ADDR.evm, refundChain: 'base' });
		const wrong = await runError(node(offramp({ options: { refundAddress: ADDR.evm, refundChain: 'ethereum' } })));
		expect(wrong.message).toMatch(/^Invalid "refundChain" in item 0: must be the source chain \(base\)/);
	});
});

describe('Create Offramp and Create Onramp never return an expired answer as payable (like Quote > Create)', () => {
	const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	/** Runs `parameters` under `key` once with one second of life left, then again once that second has passed. */
	async function replayedAfterExpiry(parameters: INodeParameters, key: string) {
		clock.skewMs = -119_000;
		const withKey = { ...parameters, options: { ...(parameters.options as object), idempotencyKey: key } };
		const [first] = await run(node(withKey, { executionId: `exec-${key}-0` }));
		clock.skewMs = 0;
		await sleep(1_100);
		return { first, again: await runError(node(withKey, { executionId: `exec-${key}-1` })), withKey };
	}

	it.each([
		['Create Offramp', offramp(), '/v1/orchestration/offramp'],
		['Create Onramp', onramp(), '/v1/orchestration/onramp'],
	])('%s: a replayed, expired answer fails the item with code quote_expired and the next step', async (_name, parameters, path) => {
		const key = `payout-${path.split('/').pop()}-expired`;
		const { first, again, withKey } = await replayedAfterExpiry(parameters, key);
		expect(first.replayed).toBe(false);
		expect(again.message).toMatch(new RegExp(`^Quote ${first.quoteId as string} expired at .* s ago\\): the service replayed an earlier answer to this idempotency key, so its deposit address must not be paid \\(item 0\\)$`));
		expect(again.description).toMatch(/new Idempotency Key/);
		expect((again as { errorCode?: string }).errorCode).toBe('quote_expired');
		expect((await posts(path)).map((p) => p.replayed)).toEqual([false, true]);
		const [out] = await run(node(withKey, { continueOnFail: true }));
		expect(out).toMatchObject({ errorCode: 'quote_expired' });
		expect(out.depositAddress).toBeUndefined();
	});

	it('an answer with less life than Expiry Margin (Seconds) fails; a replayed live one is marked replayed', async () => {
		clock.skewMs = -115_000;
		const error = await runError(node(onramp({ options: { expiryMarginSeconds: 30 } })));
		expect(error.message).toMatch(/expires at .*, in \d s, less than the margin of 30 s/);
		clock.skewMs = 0;
		const params = offramp({ options: { refundAddress: ADDR.evm, idempotencyKey: 'offramp-live-replay' } });
		const [first] = await run(node(params));
		const [again] = await run(node(params));
		expect([first.replayed, again.replayed, again.quoteId]).toEqual([false, true, first.quoteId]);
	});
});
