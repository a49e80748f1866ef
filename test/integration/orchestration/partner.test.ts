/**
 * affiliate.getAll, affiliate.getPayoutDestinations, webhook.create and the deprecated accumulation
 * and liquidation operations, with server keys and with client keys where the service admits them.
 */
import type { INodeParameters } from 'n8n-workflow';
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';
import type { Sandbox } from '../../../sandbox';
import {
	CLIENT_AFFILIATE,
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	runError,
	SERVER_KEY,
	SERVER_KEY_PARTNER2,
	startTestSandbox,
} from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('affiliate.getAll', () => {
	it('lists every affiliate for a server key, one item each, cut to the limit', async () => {
		const all = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: true, includeDisabled: true }));
		expect(all.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha', 'aff_sandbox_beta', 'aff_sandbox_retired']);
		expect(all[0]).toMatchObject({ feeBps: 50, payoutChain: 'base', enabled: true, createdAt: expect.any(String) });
		expect(await run(node({ resource: 'affiliate', operation: 'getAll', limit: 2 }))).toHaveLength(2);
		expect(await run(node({ resource: 'affiliate', operation: 'getAll' }, SERVER_KEY_PARTNER2))).toEqual([]);
	});

	it('shows a pinned client key (affiliates:read) only its own affiliate', async () => {
		const pinned = await run(node({ resource: 'affiliate', operation: 'getAll', returnAll: true }, CLIENT_AFFILIATE));
		expect(pinned.map((a) => a.affiliateId)).toEqual(['aff_sandbox_alpha']);
		const unpinned = await runError(node({ resource: 'affiliate', operation: 'getAll' }, CLIENT_ALL));
		expect(unpinned.message).toMatch(/^forbidden: /);
	});
});

describe('affiliate.getPayoutDestinations', () => {
	it('lists the payout chains and assets live now, one item each, cut to the limit; a profile may name each', async () => {
		const all = await run(node({ resource: 'affiliate', operation: 'getPayoutDestinations', returnAll: true }));
		expect(all).toContainEqual({ chain: 'base', asset: 'USDC' });
		expect(all.some((d) => d.chain === 'lightning')).toBe(false);
		const [first] = await run(node({ resource: 'affiliate', operation: 'getPayoutDestinations', limit: 1 }));
		expect(first).toEqual(all[0]);
		expect(await run(node({ resource: 'affiliate', operation: 'getPayoutDestinations', limit: 3 }))).toHaveLength(3);
		const [sent] = await control(sb).requests({ path: '/v1/affiliate-dashboard/payout-destinations' });
		expect(sent.method).toBe('GET');
		const [profile] = await run(
			node({ resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_payout', feeBps: 25, payoutChain: String(first.chain), payoutAsset: String(first.asset), payoutAddress: '0x1111111111111111111111111111111111111111' }),
		);
		expect(profile).toMatchObject({ affiliateId: 'aff_payout', payoutChain: first.chain, payoutAsset: first.asset });
	});

	it('is refused to client keys, with the hint to use a server key', async () => {
		const error = await runError(node({ resource: 'affiliate', operation: 'getPayoutDestinations' }, CLIENT_ALL));
		expect(error.message).toMatch(/^forbidden: /);
		expect(error.description).toMatch(/Orchestration Server Key/);
	});
});

describe('webhook.create', () => {
	it('registers the URL with an idempotency key and keeps the secret out of the output by default', async () => {
		const [out] = await run(node({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/orders' }));
		expect(out).toMatchObject({ webhookId: expect.any(String), url: 'https://example.com/hooks/orders', secretIssued: true });
		expect(out).not.toHaveProperty('secret');
		expect(JSON.stringify(out)).not.toMatch(/whsec_/);
		const [post] = await control(sb).requests({ path: '/v1/webhooks' });
		expect(post.body).toEqual({ url: 'https://example.com/hooks/orders' });
		expect(post.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
	});

	it('passes the once-shown secret on when "Output Signing Secret" is on', async () => {
		const [out] = await run(
			node({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/ledger', options: { outputSecret: true } }),
		);
		expect(out.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
	});

	it('refuses a URL that is not absolute http(s), before any request', async () => {
		const error = await runError(node({ resource: 'webhook', operation: 'create', url: 'example.com/hook' }));
		expect(error.message).toBe('Invalid "url" in item 0: must be an absolute http:// or https:// URL');
		expect(await control(sb).requests()).toEqual([]);
	});

	it('is refused to client keys', async () => {
		const error = await runError(node({ resource: 'webhook', operation: 'create', url: 'https://example.com/h' }, CLIENT_ALL));
		expect(error.message).toMatch(/^forbidden: /);
	});
});

describe('accumulation addresses (deprecated)', () => {
	it('get, sync and reindex with a server key', async () => {
		const [record] = await run(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' }));
		expect(record).toMatchObject({ accumulationAddressId: 'acc_sandbox_usdc_base', sourceChain: 'base', destinationAsset: 'BTC', enabled: true });
		expect(record.subscriptions).toEqual([expect.objectContaining({ status: 'pending' })]);
		const [sync] = await run(node({ resource: 'accumulationAddress', operation: 'sync' }));
		expect(sync).toEqual({ ok: true, enabledCount: 1, solanaAddressCount: 0, errors: [] });
		const [byAddress] = await run(node({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: record.depositAddress as string }));
		expect(byAddress).toMatchObject({ ok: true, accumulationAddressId: 'acc_sandbox_usdc_base', relay: { checkedCurrencies: 1 } });
		const posts = await control(sb).requests({ method: 'POST' });
		expect(posts.map((p) => p.path)).toEqual([
			'/v1/accumulation-addresses/sync',
			`/v1/accumulation-addresses/${record.depositAddress}/reindex`,
		]);
		expect(posts.every((p) => /^n8n-[0-9a-f]{64}$/.test(p.idempotencyKey))).toBe(true);
	});

	it('reindex with a client key that has accumulation:create; get and sync stay server-only', async () => {
		const [out] = await run(node({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' }, 'fnp_sandbox_accumulation_create'));
		expect(out.ok).toBe(true);
		const scopeless = await runError(node({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' }, 'fnp_sandbox_checkout'));
		expect(scopeless.description).toBe('This operation needs the client-key scope "accumulation:create".');
		expect((await runError(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
		expect((await runError(node({ resource: 'accumulationAddress', operation: 'sync' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});

	it('an unknown id is a 404 with its hint', async () => {
		const error = await runError(node({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_missing' }));
		expect(error).toMatchObject({ httpCode: '404', description: 'Nothing with this identifier exists for this partner.' });
	});
});

describe('liquidation addresses (deprecated)', () => {
	it('getAll and get with a server key; refused to client keys', async () => {
		const list = await run(node({ resource: 'liquidationAddress', operation: 'getAll', returnAll: true }));
		expect(list.map((l) => l.liquidationAddressId)).toEqual(['liq_sandbox_btc_usdc']);
		const [one] = await run(node({ resource: 'liquidationAddress', operation: 'get', liquidationAddressId: 'liq_sandbox_btc_usdc' }));
		expect(one).toEqual(list[0]);
		expect(one.destination).toEqual({ chain: 'base', asset: 'USDC', address: '0x00000000000000000000000000000000d0d0cafe' });
		expect((await runError(node({ resource: 'liquidationAddress', operation: 'getAll' }, CLIENT_ALL))).message).toMatch(/^forbidden: /);
	});
});

describe('node description', () => {
	const { description } = new Orchestration();
	const options = (name: string, resource?: string) =>
		description.properties
			.filter((p) => p.name === name && (!resource || p.displayOptions?.show?.resource?.includes(resource)))
			.flatMap((p) => (p.options ?? []) as Array<{ value: string; name: string; description?: string }>);

	it('keeps the public names of resources and operations', () => {
		expect(description.name).toBe('orchestration');
		expect(options('authentication').map((o) => o.value).sort()).toEqual(['clientKey', 'serverKey']);
		const operations = Object.fromEntries(
			options('resource').map((r) => [r.value, options('operation', r.value).map((o) => o.value).sort()]),
		);
		expect(operations).toEqual({
			accumulationAddress: ['get', 'reindex', 'sync'],
			affiliate: ['claim', 'disable', 'getAll', 'getClaim', 'getClaims', 'getPayoutDestinations', 'upsert'],
			liquidationAddress: ['get', 'getAll'],
			order: ['acceptZeroconfOffer', 'createOnramp', 'declineZeroconfOffer', 'getByQuote', 'getStatus', 'submit'],
			quote: ['create', 'createOfframp', 'estimate'],
			route: ['getAll', 'getLimits'],
			standingAddress: ['createOrGet', 'get', 'getDeposits', 'getDestinations', 'pause', 'resume'],
			webhook: ['create', 'delete'],
		});
	});

	it('marks the legacy resources deprecated and follows n8n conventions', () => {
		for (const legacy of options('resource').filter((r) => /^(accumulation|liquidation)Address$/.test(r.value))) {
			expect(legacy.name).toMatch(/\(Deprecated\)$/);
			expect(legacy.description).toMatch(/standing deposit addresses/);
		}
		for (const op of [...options('operation', 'accumulationAddress'), ...options('operation', 'liquidationAddress')]) {
			expect(op.description).toMatch(/^Deprecated: /);
		}
		const notices = description.properties.filter((p) => p.name === 'deprecationNotice');
		expect(notices.map((n) => n.displayOptions?.show?.resource)).toEqual([['accumulationAddress'], ['liquidationAddress']]);
		for (const n of notices) expect(n).toMatchObject({ type: 'notice', displayName: expect.stringMatching(/use the Standing Deposit Address resource/) });
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toContain('$parameter["operation"]');
		expect(description.icon).toEqual({ light: 'file:../../icons/orchestration.svg', dark: 'file:../../icons/orchestration.dark.svg' });
		expect(description.credentials?.map((c) => [c.name, c.displayOptions?.show?.authentication])).toEqual([
			['orchestrationServerApi', ['serverKey']],
			['orchestrationClientApi', ['clientKey']],
		]);
		const wireNames = description.properties.flatMap((p) => [p.name, ...((p.options ?? []) as Array<{ name: string }>).map((o) => o.name)]);
		for (const name of ['sourceChain', 'sourceAsset', 'destinationChain', 'destinationAsset', 'amount', 'recipientAddress', 'includeCalldata', 'appFees', 'affiliateId', 'amountMode', 'deliveryMode', 'refundAddress', 'refundChain', 'slippageBps', 'affiliateIds', 'additionalFields', 'idempotencyKey', 'amountFormat', 'readToken', 'waitUntilFinal']) {
			expect(wireNames).toContain(name);
		}
	});
});
