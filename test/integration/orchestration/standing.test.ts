/**
 * Standing Deposit Address, the new Affiliate operations and Webhook > Delete, run in-process on
 * n8n-core's contexts against the sandbox over real HTTP (public-notes "Standing deposit
 * addresses", "Affiliate management and claims", "Webhooks").
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../sandbox';
import { CLIENT_ALL, control, loadOptions, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
});

const node = (parameters: INodeParameters, extra: { key?: string; executionId?: string } = {}) =>
	orchestrationNode({ sb, key: extra.key ?? SERVER_KEY, executionId: extra.executionId, parameters });

const standing = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'standingAddress',
	operation: 'createOrGet',
	reference: 'customer/42 ä',
	destinationChain: 'base',
	destinationAsset: 'USDC',
	destinationAddress: '0x1111111111111111111111111111111111111111',
	...overrides,
});

const post = async (path: string, body: unknown) =>
	await fetch(sb.orchestrationUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('Standing Deposit Address', () => {
	it('Get Destinations lists {chain, asset}; the dropdowns come from that list', async () => {
		const list = await run(node({ resource: 'standingAddress', operation: 'getDestinations', returnAll: true }));
		expect(list).toContainEqual({ chain: 'spark', asset: 'USDB' });
		const chains = await loadOptions(node(standing({ destinationChain: '' })), 'getStandingDestinationChains');
		expect(chains.map((c) => c.value)).toEqual(expect.arrayContaining(['base', 'spark', 'bitcoin']));
		const assets = await loadOptions(node(standing({ destinationChain: 'spark' })), 'getStandingDestinationAssets');
		expect(assets.map((a) => a.value)).toEqual(['BTC', 'USDB']);
	});

	it('Create or Get twice with the same reference returns one instruction; the reference is one encoded path segment', async () => {
		const [first] = await run(node(standing({ options: { feeBps: 20, affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '' }] } } })));
		const [second] = await run(node(standing({ options: { feeBps: 20, affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '' }] } } })));
		expect(first.standingAddressId).toMatch(/^sda_/);
		expect(second).toEqual(first);
		expect(first).toMatchObject({ reference: 'customer/42 ä', feeBps: 20, affiliateIds: ['aff_sandbox_alpha'] });
		// an answer member the public notes do not name is passed through
		expect(first.addresses).toHaveProperty('tron');
		const puts = await control(sb).requests({ path: '/v1/standing-deposit-addresses/customer%2F42%20%C3%A4' });
		expect(puts).toHaveLength(2);
		expect(puts[0].body).toEqual({
			destination: { chain: 'base', asset: 'USDC', address: '0x1111111111111111111111111111111111111111' },
			feeBps: 20,
			affiliateIds: ['aff_sandbox_alpha'],
		});
		for (const p of puts) expect(p.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
		const [read] = await run(node({ resource: 'standingAddress', operation: 'get', reference: 'customer/42 ä' }));
		expect(read.standingAddressId).toBe(first.standingAddressId);
	});

	it('a changed body is refused with instruction_conflict and says what to do', async () => {
		await run(node(standing({ reference: 'shop-7' })));
		const error = await runError(node(standing({ reference: 'shop-7', options: { slippageBps: 75 } })));
		expect(error.message).toMatch(/instruction_conflict/);
		expect(String(error.description)).toMatch(/Send exactly the settings it was created with .* or use a new reference/);
	});

	it('Retry On Fail in one execution sends the same key (the service replays)', async () => {
		await run(node(standing({ reference: 'retry-1' }), { executionId: 'exec-standing-retry' }));
		await run(node(standing({ reference: 'retry-1' }), { executionId: 'exec-standing-retry' }));
		const keys = (await control(sb).requests({ path: '/v1/standing-deposit-addresses/retry-1' })).map((r) => [r.idempotencyKey, r.replayed]);
		expect(keys[0][0]).toBe(keys[1][0]);
		expect(keys[1][1]).toBe(true);
	});

	it.each([
		[{ options: { feeBps: 9000, affiliateIds: { affiliate: [{ affiliateId: 'aff_sandbox_alpha', feeBps: '1000' }] } } }, /^Invalid "feeBps" in item 0: the fee and the affiliate fee overrides add up to 10000 bps/],
		[{ options: { affiliateIds: { affiliate: [{ affiliateId: 'aff alpha', feeBps: '' }] } } }, /^Invalid "affiliateIds\[0\]\.affiliateId" in item 0: "aff alpha" is not an affiliate ID/],
		[{ options: { slippageBps: 10001 } }, /^Invalid "slippageBps" in item 0: 10001 is out of range/],
		[{ reference: 'x'.repeat(129) }, /^Invalid "reference" in item 0: is 129 characters long; at most 128/],
		[{ reference: '..' }, /^Invalid "reference" in item 0: ".." is a dot segment/],
		[{ destinationChain: 'atlantis' }, /^Invalid "destinationChain" in item 0: "atlantis" is not a chain/],
		[{ options: { refundAddresses: '[1]' } }, /^Invalid "refundAddresses" in item 0: must be a JSON object/],
	])('refuses bad input before any request (%#)', async (overrides, message) => {
		const error = await runError(node(standing(overrides as INodeParameters)));
		expect(error.message).toMatch(message);
		expect(await control(sb).requests({ path: '/v1/standing-deposit-addresses' })).toEqual([]);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
	});

	it('client keys are refused by the service (server keys only, reads included)', async () => {
		const error = await runError(node({ resource: 'standingAddress', operation: 'getDestinations' }, { key: CLIENT_ALL }));
		expect(error.message).toMatch(/^forbidden: /);
	});
});

describe('Affiliate management and claims', () => {
	const upsert = (affiliateId: string, feeBps: number, payoutChain = 'base') =>
		node({ resource: 'affiliate', operation: 'upsert', affiliateId, feeBps, payoutChain, payoutAsset: 'USDC', payoutAddress: '0x2222222222222222222222222222222222222222' });

	it('Create or Update, Disable, Get Many with Include Disabled and paging', async () => {
		const [created] = await run(upsert('aff_shop', 30));
		expect(created).toMatchObject({ affiliateId: 'aff_shop', feeBps: 30, enabled: true });
		const [updated] = await run(upsert('aff_shop', 45));
		expect(updated.feeBps).toBe(45);
		const [disabled] = await run(node({ resource: 'affiliate', operation: 'disable', affiliateId: 'aff_shop' }));
		expect(disabled).toEqual({ affiliateId: 'aff_shop', ok: true });
		const enabled = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: true }));
		expect(enabled.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta']);
		await control(sb).clearRequests();
		const limited = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: false, limit: 3, includeDisabled: true }));
		expect(limited.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta', 'aff_sandbox_retired']);
		const [listing] = await control(sb).requests({ path: '/v1/affiliates' });
		expect(listing.query).toEqual({ includeDisabled: 'true', limit: '3', offset: '0' });
	});

	it('refuses a Lightning payout, a fee of 10,000 bps and a bad ID before any request', async () => {
		expect((await runError(upsert('aff_ln', 10, 'lightning'))).message).toMatch(/^Invalid "payoutChain" in item 0: Lightning cannot receive/);
		expect((await runError(upsert('aff_big', 10000))).message).toMatch(/^Invalid "feeBps" in item 0: 10000 is out of range/);
		expect((await runError(upsert('../x', 10))).message).toMatch(/^Invalid "affiliateId" in item 0/);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
	});

	it('Claim pays the balance once per execution, with formatted amounts; Get Claims lists it', async () => {
		expect((await post('/sandbox/affiliates/aff_sandbox_alpha/accrue', { amount: '2500000' })).status).toBe(201);
		const claim = () => node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }, { executionId: 'exec-claim-1' });
		const [first] = await run(claim());
		expect(first).toMatchObject({ affiliateId: 'aff_sandbox_alpha', settlementChain: 'base', settlementAsset: 'USDC', amount: '2500000', amountFormatted: '2.5', status: 'processing' });
		// n8n's Retry On Fail (same execution, node and item): the same key, the first claim replayed
		const [retried] = await run(claim());
		expect(retried).toMatchObject({ id: first.id, replayed: true });
		const claims = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: true }));
		expect(claims).toEqual([expect.objectContaining({ id: first.id, amountFormatted: '2.5' })]);
		// a new execution finds nothing left to claim
		const nothing = await runError(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }));
		expect(nothing.message).toMatch(/invalid_state/);
	});
});

describe('Webhook > Delete', () => {
	it('deletes an endpoint and a recovery subscription by ID; an unknown ID is not_found', async () => {
		const [hook] = await run(node({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/a' }));
		const webhookId = String(hook.webhookId);
		const [gone] = await run(node({ resource: 'webhook', operation: 'delete', webhookId }));
		expect(gone).toEqual({ webhookId: hook.webhookId, recovery: false, ok: true });
		const [del] = await control(sb).requests({ path: `/v1/webhooks/${hook.webhookId as string}` });
		expect(del).toMatchObject({ method: 'DELETE', status: 200, idempotencyKey: expect.stringMatching(/^n8n-/) });
		const again = await runError(node({ resource: 'webhook', operation: 'delete', webhookId }));
		expect(again.message).toMatch(/^not_found: /);
		const recovery = (await (await fetch(`${sb.orchestrationUrl}/v1/webhooks/recovery`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_KEY}`, 'x-idempotency-key': 'k-recovery-1' },
			body: JSON.stringify({ url: 'https://example.com/hooks/r' }),
		})).json()) as { webhookId: string };
		const [out] = await run(node({ resource: 'webhook', operation: 'delete', webhookId: recovery.webhookId, recovery: true }));
		expect(out).toMatchObject({ recovery: true, ok: true });
	});
});
