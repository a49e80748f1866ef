/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Lost answers (issue 10): the service acted but its answer never arrived. For every mutating
 * operation of the Orchestration node, the sandbox runs the handler and then drops the connection
 * (`dropAnswer`) or answers after the node's request timeout (`lateAnswer`). The node retries with
 * the same idempotency key and body: the service acts once, and the node returns the first result.
 */
import type { INodeParameters } from 'n8n-workflow';
import { requestTimeout } from '../../../nodes/n8n/transport';
import type { Sandbox } from '../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => (sb = await startTestSandbox()));
afterAll(() => sb.close());
afterEach(async () => {
	requestTimeout.ms = 30_000;
	await control(sb).reset();
});

/** The node gives up on an answer after this long, the late answer comes after LATE_MS. */
const TIMEOUT_MS = 400;
const LATE_MS = 1500;

const get = async (path: string): Promise<any> => (await fetch(sb.orchestrationUrl + path)).json();
const quotesOfKey = async (key: string) => (await control(sb).quotes({ idempotencyKey: key })) as any[];
const ordersOfQuote = async (quoteId: string) => ((await get('/sandbox/orders')).orders as any[]).filter((o) => o.order.quoteId === quoteId);

interface MutatingOperation {
	name: string;
	/** POST unless told. */
	method?: string;
	/** The route as the sandbox registers it (fault path and request-log filter). */
	route: string;
	parameters: () => Promise<INodeParameters>;
	/** How many times the service acted, counted from its state; and the first result's id. */
	effects: (key: string, parameters: INodeParameters) => Promise<{ count: number; firstId: unknown }>;
	/** The id the node returned. */
	idOf: (out: any) => unknown;
}

/** Quotes (and offramp quotes) are counted by the idempotency key they were created with. */
async function quotesCreated(key: string): Promise<{ count: number; firstId: unknown }> {
	const quotes = await quotesOfKey(key);
	return { count: quotes.length, firstId: quotes[0]?.quoteId };
}

async function freshQuoteId(): Promise<string> {
	const [q] = await run(orchestrationNode({ sb, parameters: quoteParams() }));
	return q.quoteId as string;
}

/** Handler runs that did not replay a stored answer (the dropped one included). */
async function handlerRuns(route: string, key: string): Promise<number> {
	const requests = await control(sb).requests({ path: route, idempotencyKey: key });
	return requests.filter((r) => !r.replayed && r.status < 300).length;
}

const SERVER = { authorization: 'Bearer fn_sandbox_server_partner1' };
const claimsOf = async (affiliateId: string): Promise<any[]> =>
	((await (await fetch(`${sb.orchestrationUrl}/v1/affiliates/${affiliateId}/claims`, { headers: SERVER })).json()) as any).claims;

const OPERATIONS: MutatingOperation[] = [
	{
		name: 'affiliate.claim',
		route: '/v1/affiliates/:affiliateId/claim',
		parameters: async () => {
			await fetch(`${sb.orchestrationUrl}/sandbox/affiliates/aff_sandbox_beta/accrue`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ amount: '5000000' }),
			});
			return { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_beta' };
		},
		effects: async () => {
			const claims = await claimsOf('aff_sandbox_beta');
			return { count: claims.length, firstId: claims[0]?.id };
		},
		idOf: (out) => out.id,
	},
	{
		name: 'affiliate.claim with its optional body',
		route: '/v1/affiliates/:affiliateId/claim',
		parameters: async () => {
			await fetch(`${sb.orchestrationUrl}/sandbox/affiliates/aff_sandbox_beta/accrue`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ amount: '5000000', chain: 'solana', asset: 'USDC' }),
			});
			return { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_beta', options: { settlementChain: 'solana', settlementAsset: 'USDC', payoutAddress: ADDR.evm, allowPayoutChange: true } };
		},
		effects: async () => {
			const claims = await claimsOf('aff_sandbox_beta');
			return { count: claims.length, firstId: claims[0]?.id };
		},
		idOf: (out) => out.id,
	},
	{
		name: 'standingAddress.pause',
		method: 'PATCH',
		route: '/v1/standing-deposit-addresses/:ref/enabled',
		parameters: async () => {
			await fetch(`${sb.orchestrationUrl}/v1/standing-deposit-addresses/lost-pause`, {
				method: 'PUT',
				headers: { ...SERVER, 'content-type': 'application/json', 'x-idempotency-key': `lost-pause-${Date.now()}` },
				body: JSON.stringify({ destination: { chain: 'base', asset: 'USDC', address: ADDR.evm } }),
			});
			return { resource: 'standingAddress', operation: 'pause', reference: 'lost-pause' };
		},
		effects: async (key) => {
			const read = (await (await fetch(`${sb.orchestrationUrl}/v1/standing-deposit-addresses/lost-pause`, { headers: SERVER })).json()) as any;
			return { count: await handlerRuns('/v1/standing-deposit-addresses/:ref/enabled', key), firstId: read.enabled === false ? read.standingAddressId : undefined };
		},
		idOf: (out) => out.standingAddressId,
	},
	{
		name: 'standingAddress.createOrGet',
		method: 'PUT',
		route: '/v1/standing-deposit-addresses/:ref',
		parameters: async () => ({ resource: 'standingAddress', operation: 'createOrGet', reference: 'lost-1', destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: ADDR.evm }),
		effects: async (key) => {
			const read = (await (await fetch(`${sb.orchestrationUrl}/v1/standing-deposit-addresses/lost-1`, { headers: SERVER })).json()) as any;
			return { count: await handlerRuns('/v1/standing-deposit-addresses/:ref', key), firstId: read.standingAddressId };
		},
		idOf: (out) => out.standingAddressId,
	},
	{
		name: 'quote.create',
		route: '/v1/orchestration/quote',
		parameters: async () => quoteParams(),
		effects: quotesCreated,
		idOf: (out) => out.quoteId,
	},
	{
		name: 'quote.createOfframp',
		route: '/v1/orchestration/offramp',
		parameters: async () => ({ resource: 'quote', operation: 'createOfframp', sourceChain: 'base', sourceAsset: 'USDC', amount: '25000000', amountFormat: 'smallestUnit', recipientAddress: '$alice', options: { refundAddress: '0x1111111111111111111111111111111111111111' } }),
		effects: quotesCreated,
		idOf: (out) => out.quoteId,
	},
	{
		name: 'order.submit',
		route: '/v1/orchestration/submit',
		parameters: async () => ({ resource: 'order', operation: 'submit', quoteId: await freshQuoteId(), txHash: `0x${'ab'.repeat(32)}` }),
		effects: async (_key, parameters) => {
			const orders = await ordersOfQuote(parameters.quoteId as string);
			return { count: orders.length, firstId: orders[0]?.order.id };
		},
		idOf: (out) => out.orderId,
	},
	{
		name: 'order.createOnramp',
		route: '/v1/orchestration/onramp',
		parameters: async () => ({ resource: 'order', operation: 'createOnramp', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: ADDR.evm, amountFormat: 'decimal', amount: '0.001' }),
		effects: async (key) => {
			const quotes = await quotesOfKey(key);
			const orders = (await Promise.all(quotes.map((q) => ordersOfQuote(q.quoteId)))).flat();
			return { count: Math.max(quotes.length, orders.length), firstId: orders[0]?.order.id };
		},
		idOf: (out) => out.orderId,
	},
	{
		name: 'webhook.create',
		route: '/v1/webhooks',
		parameters: async () => ({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/lost' }),
		effects: async () => {
			const hooks = ((await get('/sandbox/webhooks')).webhooks as any[]).filter((w) => w.url === 'https://example.com/hooks/lost');
			return { count: hooks.length, firstId: hooks[0]?.webhookId };
		},
		idOf: (out) => out.webhookId,
	},
	{
		name: 'accumulationAddress.sync',
		route: '/v1/accumulation-addresses/sync',
		parameters: async () => ({ resource: 'accumulationAddress', operation: 'sync' }),
		effects: async (key) => ({ count: await handlerRuns('/v1/accumulation-addresses/sync', key), firstId: true }),
		idOf: (out) => out.ok,
	},
	{
		name: 'accumulationAddress.reindex',
		route: '/v1/accumulation-addresses/:idOrAddress/reindex',
		parameters: async () => ({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' }),
		effects: async (key) => ({ count: await handlerRuns('/v1/accumulation-addresses/:idOrAddress/reindex', key), firstId: 'acc_sandbox_usdc_base' }),
		idOf: (out) => out.accumulationAddressId,
	},
];

/** Runs the operation under a lost-answer fault and checks the one effect and the replayed result. */
async function runLost(op: MutatingOperation, fault: Record<string, unknown>): Promise<void> {
	const parameters = await op.parameters();
	await control(sb).clearRequests();
	await control(sb).fault({ method: op.method ?? 'POST', path: op.route, ...fault });
	const [out] = await run(orchestrationNode({ sb, parameters }));

	const attempts = await control(sb).requests({ path: op.route });
	expect(attempts.length).toBeGreaterThanOrEqual(2);
	const key = attempts[0].idempotencyKey as string;
	expect(attempts.every((a) => a.idempotencyKey === key && JSON.stringify(a.body) === JSON.stringify(attempts[0].body))).toBe(true);
	expect(attempts.slice(1).every((a) => a.replayed)).toBe(true);

	const { count, firstId } = await op.effects(key, parameters);
	expect(count).toBe(1);
	expect(op.idOf(out)).toBe(firstId);
}

describe.each(OPERATIONS.map((op) => [op.name, op] as const))('%s with a lost answer', (_name, op) => {
	it('dropAnswer: the connection closes after the service acted; the retry replays the first result', async () => {
		await runLost(op, { mode: 'dropAnswer' });
		const [first] = await control(sb).requests({ path: op.route });
		expect(first.answerWithheld).toBe('dropAnswer');
	});

	it('lateAnswer: the answer comes after the node gave up; the retry replays the first result', async () => {
		requestTimeout.ms = TIMEOUT_MS;
		await runLost(op, { mode: 'lateAnswer', latencyMs: LATE_MS });
		const [first] = await control(sb).requests({ path: op.route });
		expect(first.answerWithheld).toBe('lateAnswer');
	});
});

describe.each(OPERATIONS.map((op) => [op.name, op] as const))('%s while the first attempt is still running', (_name, op) => {
	it('idempotency_in_progress with Retry-After is waited out, then the stored answer is replayed: one effect', async () => {
		const parameters = await op.parameters();
		await control(sb).clearRequests();
		requestTimeout.ms = TIMEOUT_MS;
		// Each idempotent request holds its key "in flight" 1.2 s: the node's retry lands inside it.
		await control(sb).config({ processingDelayMs: 1200 });
		const [out] = await run(orchestrationNode({ sb, parameters }));
		await control(sb).config({ processingDelayMs: 0 });

		const attempts = await control(sb).requests({ path: op.route });
		const seen = attempts.map((a) => (a.replayed ? 'replayed' : a.status === 409 ? 'in_progress' : a.status));
		expect(seen).toContain('in_progress');
		expect(seen[seen.length - 1]).toBe('replayed');
		// The first attempt ran to the end after the node had given up on it.
		expect(attempts.filter((a) => a.clientGone)).toHaveLength(1);
		const { count, firstId } = await op.effects(attempts[0].idempotencyKey, parameters);
		expect(count).toBe(1);
		expect(op.idOf(out)).toBe(firstId);
	});
});
