/**
 * Routes dropdowns and route.getAll over the sandbox's large catalogue (4,000+ entries), on n8n-core's
 * real contexts over HTTP. "cold" empties the 60 s routes cache first (fetch + validation + index);
 * "warm" reuses it, as every dropdown after the first does. Median of RUNS runs, in ms.
 */
import type { INodeParameters } from 'n8n-workflow';
import { OrchestrationClientApi } from '../credentials/OrchestrationClientApi.credentials';
import { OrchestrationServerApi } from '../credentials/OrchestrationServerApi.credentials';
import { clearRoutesCache } from '../nodes/Orchestration/helpers/routes';
import type { Orchestration as OrchestrationNode } from '../nodes/Orchestration/Orchestration.node';
import { startSandbox } from '../sandbox';
import { createHarness, executeNode, loadOptions } from '../test/harness/n8n';

// tsx resolves `Orchestration.node` to the codex file Orchestration.node.json first: name the .ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Orchestration } = require('../nodes/Orchestration/Orchestration.node.ts') as { Orchestration: new () => OrchestrationNode };

const RUNS = 15;
const SERVER_KEY = 'fn_sandbox_server_partner1';

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function time(fn: () => Promise<unknown>, cold: boolean): Promise<number> {
	const samples: number[] = [];
	await fn(); // warm up the JIT and the connection
	for (let i = 0; i < RUNS; i++) {
		if (cold) clearRoutesCache();
		const started = process.hrtime.bigint();
		await fn();
		samples.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	return median(samples);
}

export async function run(): Promise<void> {
	const sb = await startSandbox({ quiet: true, config: { switches: { largeCatalogue: true } } });
	try {
		const node = (parameters: INodeParameters) =>
			createHarness({
				nodeType: new Orchestration(),
				credentialTypes: [new OrchestrationServerApi(), new OrchestrationClientApi()],
				credentials: { orchestrationServerApi: { baseUrl: sb.orchestrationUrl, apiKey: SERVER_KEY } },
				parameters: { authentication: 'serverKey', ...parameters },
			});
		const quote = { resource: 'quote', operation: 'create' };
		const cases: Array<[string, () => Promise<number>]> = [
			['dropdown getSourceChains', async () => (await loadOptions(node(quote), 'getSourceChains')).length],
			['dropdown getSourceAssets (ethereum)', async () => (await loadOptions(node({ ...quote, sourceChain: 'ethereum' }), 'getSourceAssets')).length],
			[
				'dropdown getDestinationAssets (from base:USDC, route.to = all)',
				async () => (await loadOptions(node({ ...quote, sourceChain: 'base', sourceAsset: 'USDC' }), 'getDestinationAssets')).length,
			],
			['dropdown getAssetRoutingKeys', async () => (await loadOptions(node(quote), 'getAssetRoutingKeys')).length],
			[
				'route.getAll (return all)',
				async () => (await executeNode(node({ resource: 'route', operation: 'getAll', returnAll: true }), [{ json: {} }]))[0].length,
			],
			[
				'route.getAll (reachable base:USDC, exact_out)',
				async () =>
					(
						await executeNode(
							node({ resource: 'route', operation: 'getAll', returnAll: true, filters: { reachableDestination: 'base:USDC', supports: ['exactOut'] } }),
							[{ json: {} }],
						)
					)[0].length,
			],
		];
		console.log(`routes catalogue: large (${RUNS} runs each, median)`);
		console.log('case | entries | cold ms | warm ms');
		for (const [name, fn] of cases) {
			const entries = await fn();
			const cold = await time(fn, true);
			const warm = await time(fn, false);
			console.log(`${name} | ${entries} | ${cold.toFixed(1)} | ${warm.toFixed(1)}`);
		}
	} finally {
		await sb.close();
		clearRoutesCache();
	}
}
