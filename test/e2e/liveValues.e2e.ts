/**
 * A chain the spec does not list, in a real n8n 2.41.1: the sandbox's routes listing offers stellar
 * (public-notes "Chains": the service keeps adding chains, its listing is the authority). n8n's own
 * editor endpoints show it in the dropdown and the asset picker; a workflow built from those values
 * (and from a routing key) gets a payable quote that is paid and followed to completed; a chain the
 * listing does not offer fails before sending, naming the field, the item and the listing.
 */
import { CREDENTIAL_IDS, CREDENTIAL_NAMES } from '../../scripts/lib/examples';
import { OWNER, closeEnv, createEnv, executeWorkflow, type E2eEnv, type RunResult } from './env';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

const BTC_ADDRESS = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
/** What the dropdowns offer for Stellar (checked against n8n's editor endpoints below). */
const STELLAR = { chain: 'stellar', usdc: 'USDC', xlm: 'stellar:XLM' };

let env: E2eEnv;

const orch = (name: string, parameters: Record<string, unknown>): WfNode => ({
	name,
	type: T.orchestration,
	typeVersion: 3,
	parameters: { authentication: 'serverKey', ...parameters },
	credentials: CREDS.server,
});
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Quote > Create from Stellar to Bitcoin, 12.5 of the source asset. */
const stellarQuote = (name: string, sourceAsset: unknown, sourceChain = STELLAR.chain) =>
	orch(name, {
		resource: 'quote',
		operation: 'create',
		sourceChain,
		sourceAsset,
		destinationChain: 'bitcoin',
		destinationAsset: fromList('BTC'),
		amountMode: 'exact_in',
		deliveryMode: 'variable',
		amountFormat: 'decimal',
		amount: '12.5',
		recipientAddress: BTC_ADDRESS,
		options: {},
	});

function workflows(orchestrationUrl: string) {
	return [
		linearWorkflow('e2eStellarPaid', 'E2E stellar quote paid', [
			{ name: 'Start', type: T.manual },
			stellarQuote('Quote', fromList(STELLAR.usdc)),
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
				waitTimeoutSeconds: 120,
			}),
		]),
		linearWorkflow('e2eStellarKey', 'E2E stellar routing key', [
			{ name: 'Start', type: T.manual },
			stellarQuote('Quote XLM', byId(STELLAR.xlm)),
			orch('Estimate XLM', { ...stellarQuote('', byId(STELLAR.xlm)).parameters, operation: 'estimate' }),
		]),
		linearWorkflow('e2eUnlistedChain', 'E2E chain the listing does not offer', [{ name: 'Start', type: T.manual }, stellarQuote('Quote', byId('USDC'), 'atlantis')]),
	];
}

function ok(result: RunResult): RunResult {
	if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
	return result;
}

beforeAll(async () => {
	env = await createEnv();
	await env.n8n.importWorkflows(workflows(env.sandbox.orchestrationUrl));
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('a chain outside the spec\'s list, through n8n execute', () => {
	it('a quote on stellar from the dropdown values is payable, paid and followed to completed', async () => {
		const result = ok(await executeWorkflow(env, 'e2eStellarPaid'));
		const [quote] = result.outputs.Quote;
		// stellar:USDC has 7 decimals in the listing: 12.5 is 125000000 smallest units
		expect(quote).toMatchObject({ sourceChain: 'stellar', sourceAsset: 'USDC', amountIn: '125000000', amountInFormatted: '12.5', replayed: false, depositMemoRequired: true });
		expect(quote.secondsUntilExpiry).toEqual(expect.any(Number));
		expect(quote.secondsUntilExpiry as number).toBeGreaterThan(0);
		expect(String(quote.depositAddress)).toMatch(/^G[A-Z2-7]{55}$/);
		expect(result.outputs.Status[0]).toMatchObject({ status: 'completed', isFinal: true });
	});

	it('a routing key (stellar:XLM, an asset the spec does not list either) quotes and estimates', async () => {
		const result = ok(await executeWorkflow(env, 'e2eStellarKey'));
		expect(result.outputs['Quote XLM'][0]).toMatchObject({ sourceChain: 'stellar', sourceAsset: 'XLM', amountIn: '125000000', replayed: false });
		expect(result.outputs['Estimate XLM'][0]).toMatchObject({ amountIn: '125000000', amountInFormatted: '12.5' });
	});

	it('a chain the listing does not offer fails before sending, naming the field, the item and the listing', async () => {
		const result = await executeWorkflow(env, 'e2eUnlistedChain');
		expect(result.ok).toBe(false);
		expect(result.raw).toMatch(/Invalid "sourceChain" in item 0: "atlantis" is not a chain the routes listing offers \(GET \/v2\/orchestration\/routes lists \d+: [a-z, ]*stellar/);
		const quotes = (await (await fetch(`${env.sandbox.orchestrationUrl}/sandbox/requests?path=/v1/orchestration/quote`)).json()) as { requests: Array<{ body: { sourceChain?: string } }> };
		expect(quotes.requests.filter((r) => r.body.sourceChain === 'atlantis')).toEqual([]);
	});
});

describe('in the editor of a running n8n: the dropdown and the picker offer the values the workflows use', () => {
	let cookie: string;
	beforeAll(async () => {
		await env.n8n.start();
		cookie = await env.n8n.setupOwner(OWNER);
	}, 300_000);

	async function editor<T>(endpoint: string, body: Record<string, unknown>): Promise<T> {
		const res = await fetch(`${env.n8n.url}/rest/dynamic-node-parameters/${endpoint}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({
				nodeTypeAndVersion: { name: T.orchestration, version: 3 },
				credentials: { orchestrationServerApi: { id: CREDENTIAL_IDS.server, name: CREDENTIAL_NAMES.server } },
				...body,
			}),
		});
		const text = await res.text();
		if (res.status !== 200) throw new Error(`${endpoint}: ${res.status} ${text}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	const parameters = (extra: Record<string, unknown> = {}) => ({ authentication: 'serverKey', resource: 'quote', operation: 'create', ...extra });

	it('Source Chain lists Stellar', async () => {
		const chains = await editor<Array<{ name: string; value: string }>>('options', {
			path: 'parameters.sourceChain',
			methodName: 'getSourceChains',
			currentNodeParameters: parameters(),
		});
		expect(chains).toContainEqual(expect.objectContaining({ name: 'Stellar', value: STELLAR.chain }));
	});

	it('the Source Asset picker on Stellar offers USDC and stellar:XLM', async () => {
		const found = await editor<{ results: Array<{ name: string; value: string }> }>('resource-locator-results', {
			path: 'parameters.sourceAsset',
			methodName: 'searchSourceAssets',
			currentNodeParameters: parameters({ sourceChain: STELLAR.chain }),
		});
		expect(found.results.map((r) => r.value).sort()).toEqual([STELLAR.usdc, STELLAR.xlm]);
	});
});
