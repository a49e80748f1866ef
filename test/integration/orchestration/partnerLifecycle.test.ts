/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * What the public notes add to standing deposit addresses and affiliates, run in-process on
 * n8n-core's contexts against the sandbox over real HTTP: Standing Deposit Address > Get Deposits
 * (newest first, paged by nextOffset, readable amounts), Pause and Resume (an unconfirmed path with
 * a way around it), Affiliate > Claim with its optional body, Get Claim, both followed until the
 * claim is paid or fails, Get Claims' filters and paging, and Create or Update refusing a silent
 * payout destination change.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../sandbox';
import { executeNodeWithHints } from '../../harness/n8n';
import { ADDR, control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// timeScale 20: a claim's payout attempt takes 1 s, an order step 150 ms
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
	await control(sb).config({ autoAdvance: true, claimOutcome: 'paid' });
});

const node = (parameters: INodeParameters, extra: { executionId?: string } = {}) => orchestrationNode({ sb, key: SERVER_KEY, executionId: extra.executionId, parameters });
const post = async (path: string, body: unknown): Promise<any> => {
	const res = await fetch(sb.orchestrationUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (res.status >= 400) throw new Error(`${path}: ${res.status} ${await res.text()}`);
	return await res.json();
};
const accrue = (amount: string, chain = 'base', affiliateId = 'aff_sandbox_alpha') => post(`/sandbox/affiliates/${affiliateId}/accrue`, { amount, chain, asset: 'USDC' });

async function standingAddress(reference: string): Promise<Record<string, string>> {
	const [created] = await run(node({ resource: 'standingAddress', operation: 'createOrGet', reference, destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: ADDR.evm }));
	return created.addresses as Record<string, string>;
}

describe('Standing Deposit Address > Get Deposits', () => {
	it('one item per deposit, newest first, with the reference, its order (quoteId null) and a readable amount', async () => {
		const addresses = await standingAddress('customer/7');
		const usdc = await control(sb).deposit({ depositAddress: addresses.evm, amount: '2500000' });
		const btc = await control(sb).deposit({ depositAddress: addresses.bitcoin, amount: '125000' });
		const deposits = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'customer/7', returnAll: true }));
		expect(deposits).toEqual([
			expect.objectContaining({ reference: 'customer/7', chain: 'bitcoin', asset: 'BTC', amount: '125000', amountFormatted: '0.00125', orderId: btc.orderId, quoteId: null }),
			expect.objectContaining({ reference: 'customer/7', chain: 'base', asset: 'USDC', amount: '2500000', amountFormatted: '2.5', orderId: usdc.orderId, quoteId: null }),
		]);
		const [listing] = await control(sb).requests({ path: '/v1/standing-deposit-addresses/customer%2F7/deposits' });
		expect(listing.query).toEqual({ limit: '100', offset: '0' });
	});

	it('pages by nextOffset: Limit across pages of Page Size, Return All until nextOffset is null', async () => {
		const addresses = await standingAddress('paged');
		for (const amount of ['1000000', '2000000', '3000000']) await control(sb).deposit({ depositAddress: addresses.evm, amount });
		await control(sb).clearRequests();
		const two = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'paged', returnAll: false, limit: 2, options: { pageSize: 1 } }));
		expect(two.map((d) => d.amount)).toEqual(['3000000', '2000000']);
		const all = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'paged', returnAll: true, options: { pageSize: 2 } }));
		expect(all.map((d) => d.amount)).toEqual(['3000000', '2000000', '1000000']);
		const queries = (await control(sb).requests({ path: '/v1/standing-deposit-addresses/paged/deposits' })).map((r) => r.query);
		expect(queries).toEqual([
			{ limit: '1', offset: '0' },
			{ limit: '1', offset: '1' },
			{ limit: '2', offset: '0' },
			{ limit: '2', offset: '2' },
		]);
	});

	it('Request Path reads the listing from another path (the path is from public client code)', async () => {
		await standingAddress('moved');
		const error = await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'moved', options: { requestPath: '/v1/standing-deposits/{ref}' } }));
		expect(error.message).toMatch(/^not_found: /);
		const [sent] = await control(sb).requests({ path: '/v1/standing-deposits/moved' });
		expect(sent).toMatchObject({ method: 'GET', query: { limit: '50', offset: '0' } });
	});

	it('an unknown reference is not_found; a bad reference or page size is refused before any request', async () => {
		expect((await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'nobody' }))).message).toMatch(/^not_found: /);
		await control(sb).clearRequests();
		expect((await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: '..' }))).message).toMatch(/^Invalid "reference" in item 0/);
		expect((await runError(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'r', options: { pageSize: 0 } }))).message).toMatch(/^Invalid "pageSize" in item 0/);
		expect(await control(sb).requests()).toEqual([]);
	});
});

describe('Standing Deposit Address > Pause and Resume', () => {
	it('Pause holds later deposits, Resume converts again; each sends PATCH {enabled} with a derived key that Retry On Fail replays', async () => {
		const addresses = await standingAddress('pausable');
		const pause = () => node({ resource: 'standingAddress', operation: 'pause', reference: 'pausable' }, { executionId: 'exec-pause-1' });
		const [paused] = await run(pause());
		expect(paused).toMatchObject({ reference: 'pausable', standingAddressId: expect.stringMatching(/^sda_/), enabled: false });
		const [again] = await run(pause());
		expect(again).toMatchObject({ enabled: false, replayed: true });
		const patches = await control(sb).requests({ path: '/v1/standing-deposit-addresses/pausable/enabled' });
		expect(patches.map((p) => [p.method, p.body, p.idempotencyKey === patches[0].idempotencyKey])).toEqual([
			['PATCH', { enabled: false }, true],
			['PATCH', { enabled: false }, true],
		]);
		expect((await control(sb).deposit({ depositAddress: addresses.evm, amount: '4000000' })).orderId).toBeNull();
		const [resumed] = await run(node({ resource: 'standingAddress', operation: 'resume', reference: 'pausable' }));
		expect(resumed).toMatchObject({ reference: 'pausable', enabled: true });
		expect((await control(sb).deposit({ depositAddress: addresses.evm, amount: '5000000' })).orderId).toMatch(/^ord_/);
		const deposits = await run(node({ resource: 'standingAddress', operation: 'getDeposits', reference: 'pausable', returnAll: true }));
		expect(deposits.map((d) => [d.amountFormatted, d.status, d.orderId === null])).toEqual([
			['5', 'converted', false],
			['4', 'held', true],
		]);
	});

	it('says the path is unconfirmed; Request Path sends the same request elsewhere, and a 404 says what to check', async () => {
		await standingAddress('elsewhere');
		const error = await runError(node({ resource: 'standingAddress', operation: 'pause', reference: 'elsewhere', options: { requestPath: '/v1/standing-deposit-addresses/{ref}/switch' } }));
		expect(error.message).toMatch(/^not_found: /);
		expect(String(error.description)).toMatch(/not confirmed by the docs.*"Request Path"/);
		const [sent] = await control(sb).requests({ path: '/v1/standing-deposit-addresses/elsewhere/switch' });
		expect(sent).toMatchObject({ method: 'PATCH', body: { enabled: false }, idempotencyKey: expect.stringMatching(/^n8n-/) });
		await control(sb).clearRequests();
		const outside = await runError(node({ resource: 'standingAddress', operation: 'pause', reference: 'elsewhere', options: { requestPath: '//evil.example/{ref}' } }));
		expect(outside.message).toMatch(/^Invalid "requestPath" in item 0: must be a path that starts with "\/"/);
		expect(await control(sb).requests()).toEqual([]);
	});
});

describe('Affiliate > Claim and Get Claim', () => {
	it('Claim sends the optional body, answers {claim} with a readable amount, and Wait Until Final follows it until paid', async () => {
		await accrue('2000000');
		await accrue('3500000', 'solana');
		const { output, error, hints } = await executeNodeWithHints(
			node({
				resource: 'affiliate',
				operation: 'claim',
				affiliateId: 'aff_sandbox_alpha',
				waitUntilFinal: true,
				pollIntervalSeconds: 3,
				waitTimeoutSeconds: 30,
				options: { settlementChain: 'solana', settlementAsset: 'USDC', payoutAddress: '0x3333333333333333333333333333333333333333' },
			}),
			[{ json: {} }],
		);
		expect(error).toBeUndefined();
		const [claim] = output![0].map((i) => i.json);
		expect(claim).toMatchObject({
			id: expect.stringMatching(/^clm_/), amount: '3500000', amountFormatted: '3.5', settlementChain: 'solana', settlementAsset: 'USDC',
			payoutAddress: '0x3333333333333333333333333333333333333333', status: 'completed', txHash: expect.stringMatching(/^0x/), waitEndedBy: 'paid', waitTimedOut: false,
		});
		const [sent] = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claim' });
		expect(sent.body).toEqual({ settlementChain: 'solana', settlementAsset: 'USDC', payoutAddress: '0x3333333333333333333333333333333333333333' });
		const reads = await control(sb).requests({ path: `/v1/affiliates/aff_sandbox_alpha/claims/${String(claim.id)}` });
		expect(reads.length).toBeGreaterThanOrEqual(1);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', message: expect.stringMatching(/^Item 0: claim clm_\S+ was paid \(txHash 0x[0-9a-f]+\) after [\d.]+ s \(polled\)$/) })]);
	}, 30_000);

	it('a plain Claim still sends no body; Retry On Fail replays the first claim', async () => {
		await accrue('2500000');
		const claim = () => node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }, { executionId: 'exec-plain-claim' });
		const [first] = await run(claim());
		expect(first).toMatchObject({ affiliateId: 'aff_sandbox_alpha', settlementChain: 'base', amount: '2500000', amountFormatted: '2.5', status: 'processing' });
		expect(first).not.toHaveProperty('waitEndedBy');
		const [retried] = await run(claim());
		expect(retried).toMatchObject({ id: first.id, replayed: true });
		const sent = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claim' });
		expect(sent.map((r) => r.body)).toEqual([null, null]);
	});

	it('Get Claim reads one claim; its wait goes on through a retried attempt (errorMessage with nextAttemptAt) until paid', async () => {
		await control(sb).config({ autoAdvance: false });
		await accrue('2000000');
		const [claim] = await run(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }));
		await post(`/sandbox/claims/${String(claim.id)}/settle`, { outcome: 'retry' });
		const [read] = await run(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: claim.id as string }));
		expect(read).toMatchObject({ id: claim.id, status: 'processing', errorMessage: expect.stringMatching(/retrying/), nextAttemptAt: expect.any(String), amountFormatted: '2' });
		const waiting = executeNodeWithHints(
			node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: claim.id as string, waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 30 }),
			[{ json: {} }],
		);
		await new Promise((r) => setTimeout(r, 1000));
		await post(`/sandbox/claims/${String(claim.id)}/settle`, { outcome: 'paid' });
		const { output, error } = await waiting;
		expect(error).toBeUndefined();
		expect(output![0][0].json).toMatchObject({ id: claim.id, status: 'completed', txHash: expect.any(String), attempts: 2, waitEndedBy: 'paid' });
	}, 30_000);

	it('a failed claim ends the wait as failed (the item carries it); a claim still processing at the timeout fails the item or returns its last state', async () => {
		await control(sb).config({ claimOutcome: 'failed' });
		await accrue('2000000');
		const { output, hints } = await executeNodeWithHints(
			node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 30 }),
			[{ json: {} }],
		);
		expect(output![0][0].json).toMatchObject({ status: 'failed', txHash: null, errorMessage: expect.any(String), waitEndedBy: 'failed', waitTimedOut: false });
		expect(hints[0]).toMatchObject({ type: 'warning', message: expect.stringMatching(/claim clm_\S+ failed \(the payout transfer was rejected/) });

		await control(sb).config({ autoAdvance: false });
		const wait = { waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 3 };
		const error = await runError(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', ...wait }));
		expect(error.message).toMatch(/^Claim clm_\S+ is still "processing" after waiting 3 s \(wait timeout\): it is not paid yet \(item 0\)$/);
		const [claims] = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: false, limit: 1 }));
		const [last] = await run(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: claims.id as string, ...wait, onTimeout: 'returnLastState' }));
		expect(last).toMatchObject({ id: claims.id, status: 'processing', waitEndedBy: 'timeout', waitTimedOut: true });
	}, 30_000);

	it('refuses a half settlement or payout pair, a Lightning payout and a bad claim ID before any request', async () => {
		await control(sb).clearRequests();
		const claim = (options: INodeParameters) => node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options });
		expect((await runError(claim({ settlementChain: 'base' }))).message).toBe('Invalid "settlementAsset" in item 0: is required with "settlementChain"');
		expect((await runError(claim({ payoutChain: 'ethereum', payoutAsset: 'USDC' }))).message).toMatch(/^Invalid "payoutAddress" in item 0: is required with "payoutChain"/);
		expect((await runError(claim({ payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'a@b.c' }))).message).toMatch(/^Invalid "payoutChain" in item 0: Lightning/);
		expect((await runError(claim({ payoutAddress: '0x1', additionalFields: '{"payoutAddress": "0x2"}' }))).message).toMatch(/^Invalid "additionalFields" in item 0: sets "payoutAddress"/);
		expect((await runError(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: '..' }))).message).toMatch(/^Invalid "claimId" in item 0/);
		expect(await control(sb).requests()).toEqual([]);
		const missing = await runError(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: 'clm_nope' }));
		expect([missing.message, missing.description]).toEqual([expect.stringMatching(/^not_found: /), expect.stringMatching(/Get Claims lists the claims/)]);
	});
});

describe('Affiliate > Get Claims', () => {
	it('filters by settlement chain and asset; Limit keeps the newest', async () => {
		await control(sb).config({ autoAdvance: false });
		for (const [chain, amount] of [['base', '2000000'], ['solana', '2100000'], ['base', '2200000']]) {
			await accrue(amount, chain);
			await run(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options: { settlementChain: chain, settlementAsset: 'USDC' } }));
		}
		await control(sb).clearRequests();
		const base = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: true, options: { settlementChain: 'base', settlementAsset: 'USDC' } }));
		expect(base.map((c) => c.amountFormatted)).toEqual(['2.2', '2']);
		const [filtered] = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claims' });
		expect(filtered.query).toEqual({ settlementChain: 'base', settlementAsset: 'USDC', limit: '200', offset: '0' });
		const two = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: false, limit: 2 }));
		expect(two.map((c) => c.amountFormatted)).toEqual(['2.2', '2.1']);
	});
});

describe('Affiliate > Create or Update: a payout destination change is explicit', () => {
	const OLD = '0x2222222222222222222222222222222222222222';
	const NEW = '0x4444444444444444444444444444444444444444';
	const upsert = (payoutAddress: string, options: INodeParameters = {}, payoutAsset = 'USDC') =>
		node({ resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_payee', feeBps: 30, payoutChain: 'base', payoutAsset, payoutAddress, options });

	it('creates, updates the fee with the same destination (any letter case of an EVM address), and refuses a new one naming both', async () => {
		expect((await run(upsert(OLD)))[0]).toMatchObject({ affiliateId: 'aff_payee', payoutAddress: OLD });
		expect((await run(upsert(OLD.toUpperCase().replace('0X', '0x'))))[0]).not.toHaveProperty('previousPayout');
		await control(sb).clearRequests();
		const error = await runError(upsert(NEW));
		expect(error.message).toBe(`Affiliate "aff_payee" is paid USDC on base to ${OLD.toUpperCase().replace('0X', '0x')} today; this update would pay its claims USDC on base to ${NEW} instead (item 0)`);
		expect(error.description).toMatch(/turn on "Allow Payout Destination Change"/);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
		// another asset of the same chain (one the routes listing offers there: an unlisted one is refused before this check)
		expect((await runError(upsert(OLD.toUpperCase().replace('0X', '0x'), {}, 'DAI'))).message).toMatch(/would pay its claims DAI on base/);
	});

	it('goes through with "Allow Payout Destination Change" and says what it replaced; a disabled affiliate is compared too', async () => {
		await run(upsert(OLD));
		const [changed] = await run(upsert(NEW, { allowPayoutChange: true }));
		expect(changed).toMatchObject({ payoutAddress: NEW, previousPayout: { payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: OLD } });
		await run(node({ resource: 'affiliate', operation: 'disable', affiliateId: 'aff_payee' }));
		expect((await runError(upsert(OLD))).message).toMatch(/is paid USDC on base to 0x4444/);
	});
});
