/**
 * One real output of every operation of both action nodes and of the trigger, against the sandbox
 * over HTTP, on n8n-core's contexts (test/harness). The output-schema generator
 * (`npm run schemas`) infers the committed `__schema__` files from the newest versions' outputs;
 * test/schemas checks every version's outputs against the schemas the build writes.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { SHARED_WAIT_VERSION } from '../../nodes/ExecutionGateway/helpers/intentWait';
import { signEip1559 } from '../../nodes/shared/gateway/eip1559';
import type { Sandbox } from '../../sandbox';
import { SCHEMA_NODES, versionsOf, type SchemaNode } from '../../scripts/lib/outputSchemas';
import { run as runGateway, gatewayHarness, startGatewayEnv, EVM_KEY } from '../harness/gateway';
import { ADDR, control, orchestrationNode, quoteParams, run as runOrchestration, startTestSandbox } from '../harness/orchestration';
import { completeRun, deliverInMemory, triggerHarness } from '../harness/trigger';

/** The node versions to take the outputs at; each node's newest when unset. */
export type SampleVersions = Partial<Record<SchemaNode, number>>;

export interface Sample {
	node: SchemaNode;
	resource?: string;
	operation?: string;
	outputs: IDataObject[];
}

/** Outputs of one operation taken several times (other inputs, other shapes) go into one sample. */
function addSample(samples: Sample[], sample: Sample): void {
	const existing = samples.find((s) => s.node === sample.node && s.resource === sample.resource && s.operation === sample.operation);
	if (existing) existing.outputs.push(...sample.outputs);
	else samples.push(sample);
}

/** 250 USDC on Base to BTC, as a decimal amount. */
const quote = quoteParams({ amountFormat: 'decimal', amount: '250' });

async function orchestrationSamples(sb: Sandbox, typeVersion?: number): Promise<Sample[]> {
	const samples: Sample[] = [];
	const take = async (parameters: INodeParameters): Promise<IDataObject[]> => {
		const outputs = await runOrchestration(orchestrationNode({ sb, parameters, typeVersion }));
		addSample(samples, { node: 'Orchestration', resource: String(parameters.resource), operation: String(parameters.operation), outputs });
		return outputs;
	};
	await take({ resource: 'route', operation: 'getAll', returnAll: false, limit: 20 });
	await take({ resource: 'route', operation: 'getLimits' });
	await take({ ...quote, operation: 'estimate' });
	// A deposit with a required memo has no payment URI (null): both shapes are in the schema.
	await take({ ...quote, sourceChain: 'xrp', sourceAsset: 'XRP', amount: '100' });
	const [created] = await take(quote);
	await control(sb).deposit({ depositAddress: created.depositAddress, amount: created.amountIn });
	const status = { resource: 'order', operation: 'getStatus', lookupBy: 'quoteId', quoteId: String(created.quoteId) };
	await take({ ...status, waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 120 });
	const [offramp] = await take({ resource: 'quote', operation: 'createOfframp', sourceChain: 'base', sourceAsset: 'USDC', amountFormat: 'decimal', amount: '50', recipientAddress: '$alice', options: { refundAddress: '0x1111111111111111111111111111111111111111' } });
	// paid from a chain whose deposits need a memo: no payment link (paymentUriUnavailable says why)
	await take({ resource: 'quote', operation: 'createOfframp', sourceChain: 'xrp', sourceAsset: 'XRP', amountFormat: 'decimal', amount: '100', recipientAddress: '$alice', options: { refundAddress: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY' } });
	await take({ resource: 'order', operation: 'submit', quoteId: String(offramp.quoteId), sourceReference: 'txHash', txHash: `0x${'ab'.repeat(32)}` });
	await take({ resource: 'order', operation: 'createOnramp', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: ADDR.evm, amountFormat: 'decimal', amount: '0.001' });
	await take({ resource: 'affiliate', operation: 'getAll', returnAll: true });
	await take({ resource: 'affiliate', operation: 'getPayoutDestinations', limit: 10 });
	// removed at once: the sandbox would keep trying to deliver the next samples' events to it
	const [endpoint] = await take({ resource: 'webhook', operation: 'create', url: 'https://example.com/schemas/orders' });
	await take({ resource: 'webhook', operation: 'delete', webhookId: String(endpoint.webhookId) });
	await take({ resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' });
	await take({ resource: 'accumulationAddress', operation: 'sync' });
	await take({ resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' });
	await take({ resource: 'liquidationAddress', operation: 'getAll', returnAll: true });
	await take({ resource: 'liquidationAddress', operation: 'get', liquidationAddressId: 'liq_sandbox_btc_usdc' });
	await take({ resource: 'order', operation: 'getByQuote', quoteId: String(created.quoteId) });
	await take({ resource: 'order', operation: 'getByQuote', quoteId: String(offramp.quoteId) });
	await lifecycleSamples(sb, take);
	return samples;
}

/** The operations issues 21, 26 and 31 added: standing addresses and their deposits, affiliate management and claims, webhook delete, ZeroConf answers. */
async function lifecycleSamples(sb: Sandbox, take: (parameters: INodeParameters) => Promise<IDataObject[]>): Promise<void> {
	const standing = { resource: 'standingAddress', reference: 'schemas-1', destinationChain: 'base', destinationAsset: 'USDC', destinationAddress: ADDR.evm };
	await take({ resource: 'standingAddress', operation: 'getDestinations', returnAll: true });
	await take({ ...standing, operation: 'createOrGet' });
	const [instruction] = await take({ resource: 'standingAddress', operation: 'get', reference: 'schemas-1' });
	// deposits converted into orders, and one held while the instruction is paused
	const addresses = instruction.addresses as Record<string, string>;
	await control(sb).deposit({ depositAddress: addresses.evm, amount: '2500000', senderAddress: ADDR.evm });
	await control(sb).deposit({ depositAddress: addresses.bitcoin, amount: '125000' });
	await take({ resource: 'standingAddress', operation: 'pause', reference: 'schemas-1' });
	await control(sb).deposit({ depositAddress: addresses.evm, amount: '1000000' });
	await take({ resource: 'standingAddress', operation: 'resume', reference: 'schemas-1' });
	const deposits = await take({ resource: 'standingAddress', operation: 'getDeposits', reference: 'schemas-1', returnAll: true });
	const held = deposits.find((d) => d.status === 'held');
	await take({ resource: 'standingAddress', operation: 'refundHeldDeposits', reference: 'schemas-1', batchId: String(held?.batchId), refundAddress: ADDR.evm });
	const payout = { payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: '0x2222222222222222222222222222222222222222' };
	await take({ resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_schemas', feeBps: 30, ...payout });
	await take({ resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_schemas', feeBps: 30, ...payout, payoutAddress: ADDR.evm, options: { allowPayoutChange: true } });
	await take({ resource: 'affiliate', operation: 'disable', affiliateId: 'aff_schemas' });
	const accrue = async () =>
		await fetch(`${sb.orchestrationUrl}/sandbox/affiliates/aff_sandbox_alpha/accrue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: '2500000' }) });
	const wait = { waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 60 };
	await accrue();
	const [claim] = await take({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' });
	await take({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: String(claim.id) });
	await take({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: String(claim.id), ...wait });
	await accrue();
	// paid in another asset (a relay and an operation), then one that fails, then one retried (read while it waits)
	await take({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', ...wait, options: { payoutChain: 'ethereum', payoutAsset: 'USDT', payoutAddress: ADDR.evm, allowPayoutChange: true } });
	await control(sb).config({ claimOutcome: 'failed' });
	await accrue();
	await take({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', ...wait });
	await control(sb).config({ claimOutcome: 'paid', autoAdvance: false });
	await accrue();
	const [retried] = await take({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' });
	await fetch(`${sb.orchestrationUrl}/sandbox/claims/${String(retried.id)}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome: 'retry' }) });
	await take({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: String(retried.id) });
	await control(sb).config({ autoAdvance: true });
	await take({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: true });
	const [hook] = await take({ resource: 'webhook', operation: 'create', url: 'https://example.com/schemas/deleted' });
	await take({ resource: 'webhook', operation: 'delete', webhookId: String(hook.webhookId) });
	for (const operation of ['acceptZeroconfOffer', 'declineZeroconfOffer']) {
		await take({ resource: 'order', operation, orderId: await offeredOrder(sb) });
	}
	// A wait that ends on an order waiting for an answer (node version 3 on: actionRequired; before, it times out)
	const answerWait = { waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 4, onTimeout: 'returnLastState' };
	await take({ resource: 'order', operation: 'getStatus', lookupBy: 'id', id: await offeredOrder(sb), ...answerWait });
	// a pay link, and the fee invoices of a partner billed by invoice
	await take({ resource: 'payLink', operation: 'create', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: ADDR.evm, amountFormat: 'decimal', amount: '25', label: 'Invoice 42' });
	await take({ resource: 'payLink', operation: 'create', destinationChain: 'base', destinationAsset: 'USDC', recipientAddress: ADDR.evm, amountIn: 'usd', amount: '19.99' });
	for (const amount of ['1500000', '2750000']) {
		await fetch(`${sb.orchestrationUrl}/sandbox/fee-invoices`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount, status: 'paid' }) });
	}
	await take({ resource: 'partner', operation: 'getFeeInvoices', returnAll: true });
	// no request: the item passed on with where the credential reaches
	await take({ resource: 'partner', operation: 'checkSettings' });
	// a price re-approval: the wait's answer, then each answer (Refund on a Bitcoin source)
	await take({ resource: 'order', operation: 'getStatus', lookupBy: 'id', id: await repricedOrder(sb), ...answerWait });
	await take({ resource: 'order', operation: 'approveReprice', orderId: await repricedOrder(sb) });
	await take({ resource: 'order', operation: 'rejectReprice', orderId: await repricedOrder(sb), reason: 'price too low' });
	await take({ resource: 'order', operation: 'refundReprice', orderId: await repricedOrder(sb) });
}

/** A Bitcoin order stopped in awaiting_approval for a price re-approval (the sandbox's `reprice` outcome). */
async function repricedOrder(sb: Sandbox): Promise<string> {
	const btc = quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: ADDR.evm, refundAddress: ADDR.bitcoin });
	const [quote] = await runOrchestration(orchestrationNode({ sb, parameters: btc }));
	const { orderId } = (await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn, outcome: 'reprice', autoAdvance: true })) as { orderId: string };
	await control(sb).untilOrder(orderId, 'awaiting_approval');
	return orderId;
}

/** A Bitcoin order waiting in awaiting_approval with a ZeroConf offer (the node's opt-in, paid). */
async function offeredOrder(sb: Sandbox): Promise<string> {
	const btc = quoteParams({ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', amount: '100000', recipientAddress: ADDR.evm, options: { zeroconfEnabled: 'optIn' } });
	const [quote] = await runOrchestration(orchestrationNode({ sb, parameters: btc }));
	const { orderId } = (await control(sb).deposit({ depositAddress: quote.depositAddress, amount: quote.amountIn, autoAdvance: true })) as { orderId: string };
	for (let waited = 0; waited < 10_000; waited += 50) {
		const state = (await (await fetch(`${sb.orchestrationUrl}/sandbox/orders/${orderId}`)).json()) as { order: { status: string } };
		if (state.order.status === 'awaiting_approval') return orderId;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error(`order ${orderId} did not reach awaiting_approval`);
}

const GATEWAY_NEWEST = versionsOf(SCHEMA_NODES.ExecutionGateway).at(-1)!;

async function gatewaySamples(typeVersion = GATEWAY_NEWEST): Promise<Sample[]> {
	const env = await startGatewayEnv();
	try {
		const samples: Sample[] = [];
		const take = async (parameters: INodeParameters): Promise<IDataObject[]> => {
			const outputs = await runGateway(gatewayHarness(env, parameters, { typeVersion }));
			addSample(samples, { node: 'ExecutionGateway', resource: String(parameters.resource), operation: String(parameters.operation), outputs });
			return outputs;
		};
		// Versions 1-1.1 wait through Options, 1.2 on through the top-level wait parameters.
		const shared = typeVersion >= SHARED_WAIT_VERSION;
		const wait: INodeParameters = shared
			? { waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 60, options: {} }
			: { options: { waitUntilFinal: true, pollInterval: 1, waitTimeout: 60 } };
		await take({ resource: 'network', operation: 'getInfo', options: { forceRefresh: true } });
		await take({ resource: 'network', operation: 'getHealth' });
		const btc = randomBytes(16).toString('hex');
		await env.registerTransfer({ sparkTransferId: btc, assetType: 'btc', amount: '25000' });
		const recipient = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
		const deposits = (transfer: INodeParameters): INodeParameters => ({ deposit: [transfer] });
		const [deposit] = await take({ resource: 'intent', operation: 'execute', deposits: deposits({ sparkTransferId: btc, assetType: 'btc', amount: '25000' }), action: 'deposit', recipient, ...wait });
		await take({ resource: 'intent', operation: 'get', submissionId: String(deposit.submissionId), options: {} });
		await take({ resource: 'intent', operation: 'get', submissionId: String(deposit.submissionId), ...wait });
		const token = { sparkTransferId: randomBytes(32).toString('hex'), assetType: 'token' as const, tokenId: randomBytes(32).toString('hex'), amount: '1000' };
		await env.registerTransfer(token);
		const chainId = env.sb.keys.gateway.chainId;
		const tx = { chainId, nonce: 0, maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 30_000_000_000n, gasLimit: 200_000, to: `0x${'33'.repeat(20)}`, value: 0, data: '0x' };
		await take({ resource: 'intent', operation: 'execute', deposits: deposits(token), action: 'execute', evmTransaction: signEip1559(tx, EVM_KEY), ...wait });
		// Waits that time out and return the last status (every version says so: waitTimedOut)
		await env.control('POST', '/sandbox/gateway/config', { autoAdvance: false });
		const held = { sparkTransferId: randomBytes(16).toString('hex'), assetType: 'btc' as const, amount: '25000' };
		await env.registerTransfer(held);
		const timeout: INodeParameters = shared
			? { waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 1, onTimeout: 'returnLastState', options: {} }
			: { options: { waitUntilFinal: true, pollInterval: 1, waitTimeout: 1, onTimeout: 'returnLast' } };
		const [accepted] = await take({ resource: 'intent', operation: 'execute', deposits: deposits(held), action: 'deposit', recipient, ...timeout });
		await take({ resource: 'intent', operation: 'get', submissionId: String(accepted.submissionId), ...timeout });
		return samples;
	} finally {
		await env.close();
	}
}

/** A real order event as the sandbox delivers it (spec §6), through the trigger's webhook() and run. */
async function triggerSample(sb: Sandbox, typeVersion?: number): Promise<Sample> {
	const secret = `whsec_${randomBytes(16).toString('hex')}`;
	const received: Array<{ body: string; headers: Record<string, string> }> = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			received.push({ body, headers: req.headers as Record<string, string> });
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
		await fetch(`${sb.orchestrationUrl}/sandbox/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, secret }) });
		const [created] = await runOrchestration(orchestrationNode({ sb, parameters: quote }));
		await control(sb).deposit({ depositAddress: created.depositAddress, amount: created.amountIn });
		// and an order with a ZeroConf offer, accepted (its events carry the offer, then its answer)
		const offeredId = await offeredOrder(sb);
		await runOrchestration(orchestrationNode({ sb, parameters: { resource: 'order', operation: 'acceptZeroconfOffer', orderId: offeredId } }));
		const event = (r: { body: string }) => JSON.parse(r.body) as { event?: string; data?: IDataObject };
		// Only the events of these two orders: orders of earlier samples may still be moving.
		const events = () => received.filter((r) => event(r).data?.quoteId === created.quoteId || event(r).data?.id === offeredId);
		// Until the first order completed (a final event carries the delivered amount, amountOut; earlier
		// ones null) and the offer's answer was delivered.
		const done = () =>
			events().some((r) => event(r).event === 'order.completed' && event(r).data?.quoteId === created.quoteId) &&
			events().some((r) => typeof (event(r).data?.zeroconfOffer as IDataObject | null | undefined)?.resolvedAt === 'string');
		for (let waited = 0; !done() && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
		if (!done()) throw new Error('the sandbox delivered no order.completed event, or no event with an answered ZeroConf offer');
		const h = triggerHarness({ parameters: { registration: 'existingEndpoint', webhookSecret: secret }, typeVersion });
		const outputs: IDataObject[] = [];
		for (const delivery of events()) {
			const headers = { 'content-type': 'application/json', 'x-service-timestamp': delivery.headers['x-service-timestamp'], 'x-service-signature': delivery.headers['x-service-signature'] };
			const answer = await deliverInMemory(h, delivery.body, headers);
			const items = answer.result.workflowData?.[0];
			if (items) outputs.push(...(await completeRun(h, items)).map((i) => i.json));
		}
		return { node: 'OrchestrationTrigger', outputs };
	} finally {
		server.closeAllConnections();
		server.close();
	}
}

export async function collectSamples(versions: SampleVersions = {}): Promise<Sample[]> {
	const sb = await startTestSandbox();
	try {
		const orchestration = await orchestrationSamples(sb, versions.Orchestration);
		const trigger = await triggerSample(sb, versions.OrchestrationTrigger);
		return [...orchestration, ...(await gatewaySamples(versions.ExecutionGateway)), trigger];
	} finally {
		await sb.close();
	}
}
