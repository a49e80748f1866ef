/**
 * Lost answers inside a real n8n (issue 10): the sandbox acts, then drops the connection. The quote
 * node returns the first quote (one at the service), the gateway node reports the intent accepted
 * earlier with its nonce (one intent at the gateway).
 */
import { randomBytes } from 'node:crypto';
import { quoteParams, type Flow } from './orchestration.flows';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

function getJson(name: string, url: string): WfNode {
	return { name, type: T.http, parameters: { method: 'GET', url, options: {} } };
}

export function lostAnswerWorkflows(orchestrationUrl: string, gatewayUrl: string): Flow[] {
	const key = `e2e-lost-${randomBytes(6).toString('hex')}`;
	const transfer = randomBytes(16).toString('hex');
	const dropOnce = (service: string, path: string) =>
		JSON.stringify({ service, method: 'POST', path, mode: 'dropAnswer' });
	return [
		{
			id: 'e2eLostAnswers',
			title: 'lost answers: a quote and an intent whose answers are dropped after the service acted',
			workflow: linearWorkflow('e2eLostAnswers', 'E2E lost answers', [
				{ name: 'Start', type: T.manual },
				postJson('Lose the quote answer', `${orchestrationUrl}/sandbox/faults`, dropOnce('orchestration', '/v1/orchestration/quote')),
				{
					name: 'Quote',
					type: T.orchestration,
					parameters: { authentication: 'serverKey', ...quoteParams, options: { idempotencyKey: key } },
					credentials: CREDS.server,
				},
				getJson('Quotes at the service', `${orchestrationUrl}/sandbox/quotes?idempotencyKey=${key}`),
				postJson('Lose the execute answer', `${orchestrationUrl}/sandbox/faults`, dropOnce('gateway', '/api/v1/execute')),
				postJson('Register transfer', `${gatewayUrl}/sandbox/transfers`, JSON.stringify({ sparkTransferId: transfer, assetType: 'btc', amount: '25000' })),
				{
					name: 'Execute',
					type: T.gateway,
					parameters: {
						resource: 'intent',
						operation: 'execute',
						deposits: { deposit: [{ sparkTransferId: transfer, assetType: 'btc', amount: '25000' }] },
						action: 'deposit',
						recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
						options: {},
					},
					credentials: CREDS.gateway,
				},
				getJson('Intents at the gateway', `${gatewayUrl}/sandbox/intents`),
			]),
			check(result) {
				if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
				const quote = result.outputs.Quote[0];
				const quotes = result.outputs['Quotes at the service'][0].quotes as Array<{ quoteId: string }>;
				expect(quotes).toHaveLength(1);
				expect(quote.quoteId).toBe(quotes[0].quoteId);
				const executed = result.outputs.Execute[0];
				expect(executed).toMatchObject({ outcome: 'accepted_earlier', submissionId: null });
				expect(String(executed.message)).toContain(`nonce "${executed.nonce}"`);
				const intents = result.outputs['Intents at the gateway'][0].intents as Array<{ nonce: string }>;
				expect(intents.filter((i) => i.nonce === executed.nonce)).toHaveLength(1);
			},
		},
	];
}
