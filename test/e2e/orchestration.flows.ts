/** Workflows that run every Orchestration operation in n8n, with the checks of their outputs. */
import type { E2eEnv, RunResult } from './env';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

const BTC_ADDRESS = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const EVM_ADDRESS = '0x1111111111111111111111111111111111111111';

function orch(name: string, parameters: Record<string, unknown>, key: 'server' | 'client' = 'server', typeVersion?: number): WfNode {
	return {
		name,
		type: T.orchestration,
		...(typeVersion ? { typeVersion } : {}),
		parameters: { authentication: key === 'server' ? 'serverKey' : 'clientKey', ...parameters },
		credentials: key === 'server' ? CREDS.server : CREDS.client,
	};
}

export const quoteParams = {
	resource: 'quote',
	operation: 'create',
	sourceChain: 'base',
	sourceAsset: 'USDC',
	destinationChain: 'bitcoin',
	destinationAsset: 'BTC',
	amountFormat: 'decimal',
	amount: '250',
	recipientAddress: BTC_ADDRESS,
};

export interface Flow {
	id: string;
	title: string;
	workflow: Record<string, unknown>;
	check(result: RunResult, env: E2eEnv): void;
}

function expectOk(result: RunResult): void {
	if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
}

function one(result: RunResult, node: string): Record<string, unknown> {
	const items = result.outputs[node];
	if (!items?.length) throw new Error(`node "${node}" produced no items; ran: ${Object.keys(result.outputs).join(', ')}`);
	return items[0];
}

export function orchestrationWorkflows(orchestrationUrl: string): Flow[] {
	return [
		{
			id: 'e2eOrchServer',
			title: 'every operation with a server key: routes, limits, estimate, quote, pay, wait, offramp, submit, onramp, affiliates, webhook, legacy addresses',
			workflow: linearWorkflow('e2eOrchServer', 'E2E orchestration (server key)', [
				{ name: 'Start', type: T.manual },
				orch('Routes', { resource: 'route', operation: 'getAll', returnAll: true, filters: { chain: 'base' } }),
				orch('Limits', { resource: 'route', operation: 'getLimits' }),
				orch('Estimate', { ...quoteParams, operation: 'estimate' }),
				orch('Quote', quoteParams),
				postJson(
					'Pay deposit',
					`${orchestrationUrl}/sandbox/deposits`,
					"={{ JSON.stringify({ depositAddress: $('Quote').first().json.depositAddress, amount: $('Quote').first().json.amountIn }) }}",
				),
				orch('Status', {
					resource: 'order',
					operation: 'getStatus',
					lookupBy: 'quoteId',
					quoteId: "={{ $('Quote').first().json.quoteId }}",
					waitUntilFinal: true,
					pollIntervalSeconds: 3,
					waitTimeoutSeconds: 120,
				}),
				orch('Offramp', {
					resource: 'quote',
					operation: 'createOfframp',
					sourceChain: 'base',
					sourceAsset: 'USDC',
					amountFormat: 'decimal',
					amount: '50',
					recipientAddress: '$alice',
					// an offramp pays over Lightning: the live service needs a refund address (public-notes)
					options: { refundAddress: EVM_ADDRESS },
				}),
				orch('Submit', {
					resource: 'order',
					operation: 'submit',
					quoteId: "={{ $('Offramp').first().json.quoteId }}",
					sourceReference: 'txHash',
					txHash: `0x${'ab'.repeat(32)}`,
				}),
				orch('Onramp', {
					resource: 'order',
					operation: 'createOnramp',
					destinationChain: 'base',
					destinationAsset: 'USDC',
					recipientAddress: EVM_ADDRESS,
					amountFormat: 'decimal',
					amount: '0.001',
				}),
				orch('Affiliates', { resource: 'affiliate', operation: 'getAll', returnAll: true }),
				orch('Webhook', { resource: 'webhook', operation: 'create', url: 'https://example.com/e2e/orders' }),
				orch('Accumulation', { resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'acc_sandbox_usdc_base' }),
				orch('Accumulation sync', { resource: 'accumulationAddress', operation: 'sync' }),
				orch('Accumulation reindex', { resource: 'accumulationAddress', operation: 'reindex', idOrAddress: 'acc_sandbox_usdc_base' }),
				orch('Liquidation list', { resource: 'liquidationAddress', operation: 'getAll', returnAll: true }),
				orch('Liquidation', { resource: 'liquidationAddress', operation: 'get', liquidationAddressId: 'liq_sandbox_btc_usdc' }),
			]),
			check(result) {
				expectOk(result);
				expect(result.outputs.Routes.length).toBeGreaterThan(1);
				expect(result.outputs.Routes.every((r) => r.chain === 'base')).toBe(true);
				expect(one(result, 'Limits')).toBeTruthy();
				expect(one(result, 'Estimate')).toMatchObject({ amountIn: '250000000', amountInFormatted: '250' });
				const quote = one(result, 'Quote');
				expect(quote).toMatchObject({ amountIn: '250000000', amountInFormatted: '250', quoteId: expect.any(String) });
				expect(quote.secondsUntilExpiry).toEqual(expect.any(Number));
				const status = one(result, 'Status');
				expect(status).toMatchObject({ status: 'completed', isFinal: true });
				expect(status.stages).toEqual(expect.arrayContaining(['deposit_confirmed', 'delivered']));
				expect(one(result, 'Offramp')).toMatchObject({ amountIn: '50000000' });
				expect(one(result, 'Submit')).toMatchObject({ orderId: expect.any(String) });
				expect(String(one(result, 'Onramp').depositAddress)).toMatch(/^lnbc/);
				expect(result.outputs.Affiliates.length).toBeGreaterThan(0);
				expect(one(result, 'Webhook')).toMatchObject({ webhookId: expect.any(String), secretIssued: true });
				expect(one(result, 'Webhook')).not.toHaveProperty('secret');
				expect(one(result, 'Accumulation')).toMatchObject({ accumulationAddressId: 'acc_sandbox_usdc_base' });
				expect(one(result, 'Accumulation sync')).toMatchObject({ ok: true });
				expect(one(result, 'Accumulation reindex')).toMatchObject({ ok: true });
				expect(result.outputs['Liquidation list'].length).toBeGreaterThan(0);
				expect(one(result, 'Liquidation')).toMatchObject({ liquidationAddressId: 'liq_sandbox_btc_usdc' });
			},
		},
		{
			id: 'e2eOrchClient',
			title: 'a client key: quote with read token, pay, status by quote id with the token chained by expression',
			workflow: linearWorkflow('e2eOrchClient', 'E2E orchestration (client key)', [
				{ name: 'Start', type: T.manual },
				orch('Client quote', quoteParams, 'client'),
				postJson(
					'Pay deposit',
					`${orchestrationUrl}/sandbox/deposits`,
					"={{ JSON.stringify({ depositAddress: $('Client quote').first().json.depositAddress, amount: $('Client quote').first().json.amountIn }) }}",
				),
				orch(
					'Client status',
					{
						resource: 'order',
						operation: 'getStatus',
						lookupBy: 'quoteId',
						quoteId: "={{ $('Client quote').first().json.quoteId }}",
						readToken: "={{ $('Client quote').first().json.readToken }}",
						waitUntilFinal: true,
						pollIntervalSeconds: 3,
						waitTimeoutSeconds: 120,
					},
					'client',
				),
			]),
			check(result) {
				expectOk(result);
				expect(one(result, 'Client quote').readToken).toEqual(expect.any(String));
				expect(one(result, 'Client status')).toMatchObject({ status: 'completed', isFinal: true });
			},
		},
		{
			id: 'e2eOrchVersions',
			title: 'Amount Format defaults by node version (2: Decimal, 1: smallest units) and exact amount text',
			workflow: linearWorkflow('e2eOrchVersions', 'E2E orchestration (versions)', [
				{ name: 'Start', type: T.manual },
				orch('Quote v2', { ...quoteParams, amountFormat: undefined, amount: '125.5' }, 'server', 2),
				orch('Quote v1', { ...quoteParams, amountFormat: undefined, amount: '125500000' }, 'server', 1),
				orch(
					'Quote exact text',
					{ ...quoteParams, sourceAsset: 'ETH', amountFormat: 'smallestUnit', amount: '={{ "1234567890123456789" }}' },
					'server',
					2,
				),
			]),
			check(result) {
				expectOk(result);
				expect(one(result, 'Quote v2')).toMatchObject({ amountIn: '125500000', amountInFormatted: '125.5' });
				expect(one(result, 'Quote v1')).toMatchObject({ amountIn: '125500000', amountInFormatted: '125.5' });
				expect(one(result, 'Quote exact text')).toMatchObject({ amountIn: '1234567890123456789' });
			},
		},
		{
			id: 'e2eOrchUnsafeNumber',
			title: 'an amount expression that yields an inexact JS number fails before any request, saying to pass text',
			workflow: linearWorkflow('e2eOrchUnsafeNumber', 'E2E orchestration (unsafe number)', [
				{ name: 'Start', type: T.manual },
				orch('Quote', { ...quoteParams, sourceAsset: 'ETH', amountFormat: 'smallestUnit', amount: '={{ 1234567890123456789 }}' }, 'server', 2),
			]),
			check(result) {
				expect(result.ok).toBe(false);
				expect(result.raw).toMatch(/Invalid "amount" in item 0: 1234567890123456800 is a JS number above 9007199254740991/);
			},
		},
		{
			id: 'e2eOrchFailing',
			title: 'a failing operation fails the execution with the service error code in the message',
			workflow: linearWorkflow('e2eOrchFailing', 'E2E orchestration (failing)', [
				{ name: 'Start', type: T.manual },
				orch('Unknown order', { resource: 'order', operation: 'getStatus', lookupBy: 'id', id: 'ord_does_not_exist' }),
			]),
			check(result) {
				expect(result.ok).toBe(false);
				expect(result.raw).toMatch(/not_found/);
			},
		},
		{
			id: 'e2eOrchErrorOutput',
			title: 'Continue (using error output): a failed item goes to the error output with the service code under details, nothing on the success output',
			workflow: errorOutputWorkflow(),
			check(result) {
				expectOk(result);
				expect(result.outputs['Found']).toBeUndefined();
				expect(result.outputs['Not found']).toEqual([
					{ error: expect.stringMatching(/^not_found: /), details: { errorCode: 'not_found', httpCode: '404', description: expect.any(String) } },
				]);
			},
		},
	];
}

/** Start -> Unknown order (On Error: Continue (using error output)) -> Found | Not found. */
function errorOutputWorkflow() {
	const wf = linearWorkflow('e2eOrchErrorOutput', 'E2E orchestration (error output)', [
		{ name: 'Start', type: T.manual },
		{ ...orch('Unknown order', { resource: 'order', operation: 'getStatus', lookupBy: 'id', id: 'ord_does_not_exist' }), onError: 'continueErrorOutput' },
		{ name: 'Found', type: T.noop },
	]);
	wf.nodes.push({ ...wf.nodes[2], id: 'e2eOrchErrorOutput-3', name: 'Not found', position: [440, 200] });
	(wf.connections['Unknown order'] as { main: unknown[] }).main.push([{ node: 'Not found', type: 'main', index: 0 }]);
	return wf;
}
