/**
 * How far an operation's code is from the wire: runs Quote > Create and Intent > Execute in-process
 * (n8n-core's real contexts, test/harness) against the sandbox, takes the stack where n8n's
 * httpRequestWithAuthentication authenticates the request, and prints the package's own frames
 * (files under nodes/ and credentials/), from the node's execute() and from the operation's.
 *
 * Run: npx tsx scripts/measure-frames.ts [--stack]
 */
import { randomBytes } from 'node:crypto';
import { relative, join } from 'node:path';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { ExecutionGatewayApi } from '../credentials/ExecutionGatewayApi.credentials';
import { OrchestrationServerApi } from '../credentials/OrchestrationServerApi.credentials';
import type { ExecutionGateway as GatewayNode } from '../nodes/ExecutionGateway/ExecutionGateway.node';
import type { Orchestration as OrchestrationNode } from '../nodes/Orchestration/Orchestration.node';
import { startSandbox } from '../sandbox';
import { createHarness, executeNode, type NodeHarness } from '../test/harness/n8n';

// tsx resolves `<Name>.node` to the codex file <Name>.node.json first: name the .ts.
/* eslint-disable @typescript-eslint/no-require-imports */
const { Orchestration } = require('../nodes/Orchestration/Orchestration.node.ts') as { Orchestration: typeof OrchestrationNode };
const { ExecutionGateway } = require('../nodes/ExecutionGateway/ExecutionGateway.node.ts') as { ExecutionGateway: typeof GatewayNode };
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = join(__dirname, '..');
Error.stackTraceLimit = 200;

interface Frame {
	fn: string;
	file: string;
}

/** The package's frames of a stack, innermost first: `at [async] fn (file:line:col)` under nodes/ or credentials/. */
function packageFrames(stack: string): Frame[] {
	return stack.split('\n').flatMap((line) => {
		const match = /^\s*at (?:async )?(.*?) \(?(\/[^():]+):\d+:\d+\)?$/.exec(line);
		if (!match) return [];
		const file = relative(ROOT, match[2]);
		return /^(nodes|credentials)\//.test(file) ? [{ fn: match[1], file }] : [];
	});
}

/**
 * Runs `harness` once over `items` and returns the longest stack seen where a request to a URL ending
 * in `path` is authenticated. (V8 follows an await chain only through a promise that one async
 * function awaits first: the gateway's first bearer call of a run is shared with the other items,
 * so its stack is cut short; the second item's is whole.)
 */
async function stackAt(harness: NodeHarness, path: string, items: IDataObject[] = [{}]): Promise<string> {
	const helper = harness.credentialsHelper;
	const authenticate = helper.authenticate.bind(helper);
	const captured: string[] = [];
	helper.authenticate = async (...args: Parameters<typeof helper.authenticate>) => {
		const url = String((args[2] as IHttpRequestOptions).url ?? '');
		if (url.split('?')[0].endsWith(path)) captured.push(new Error('at the HTTP call').stack ?? '');
		return await authenticate(...args);
	};
	await executeNode(harness, items.map((json) => ({ json })));
	if (captured.length === 0) throw new Error(`no request to ${path} was authenticated`);
	return captured.reduce((longest, stack) => (packageFrames(stack).length > packageFrames(longest).length ? stack : longest));
}

function report(name: string, operationFile: string, stack: string, showStack: boolean): void {
	const frames = packageFrames(stack);
	const fromNode = frames;
	const operationAt = frames.findIndex((f) => f.file === operationFile);
	const fromOperation = operationAt === -1 ? [] : frames.slice(0, operationAt + 1);
	const files = (list: Frame[]) => new Set(list.map((f) => f.file)).size;
	console.log(`${name}:`);
	console.log(`  from the node's execute():      ${fromNode.length} package frames in ${files(fromNode)} files`);
	console.log(`  from the operation's execute(): ${fromOperation.length} package frames in ${files(fromOperation)} files`);
	if (showStack) for (const f of fromNode) console.log(`    ${f.fn}  ${f.file}`);
	if (process.env.RAW_STACK) console.log(stack);
}

async function main(): Promise<void> {
	const showStack = process.argv.includes('--stack');
	const sb = await startSandbox({ timeScale: 50, quiet: true });
	try {
		const quote = createHarness({
			nodeType: new Orchestration(),
			credentialTypes: [new OrchestrationServerApi()],
			credentials: { orchestrationServerApi: { baseUrl: sb.orchestrationUrl, apiKey: 'fn_sandbox_server_partner1' } },
			parameters: {
				authentication: 'serverKey',
				resource: 'quote',
				operation: 'create',
				sourceChain: 'base',
				sourceAsset: 'USDC',
				destinationChain: 'bitcoin',
				destinationAsset: 'BTC',
				amount: '100',
				recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
			},
			executionId: `frames-${randomBytes(4).toString('hex')}`,
		});
		report('Quote > Create', 'nodes/Orchestration/actions/quote/create.ts', await stackAt(quote, '/v1/orchestration/quote'), showStack);

		const transfers = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
		for (const transfer of transfers) {
			const control = await fetch(`${sb.gatewayUrl}/sandbox/transfers`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ sparkTransferId: transfer, assetType: 'btc', amount: '5000' }),
			});
			if (!control.ok) throw new Error(`the sandbox refused the transfer: ${control.status}`);
		}
		const intent = createHarness({
			nodeType: new ExecutionGateway(),
			credentialTypes: [new ExecutionGatewayApi()],
			credentials: { executionGatewayApi: { gatewayUrl: sb.gatewayUrl, privateKey: sb.keys.gateway.privateKeys[0], accessToken: '', accessTokenPublicKey: '' } },
			parameters: {
				resource: 'intent',
				operation: 'execute',
				deposits: { deposit: [{ sparkTransferId: '={{ $json.transfer }}', assetType: 'btc', amount: '5000' }] },
				action: 'deposit',
				recipient: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
			},
			executionId: `frames-${randomBytes(4).toString('hex')}`,
		});
		report('Intent > Execute', 'nodes/ExecutionGateway/actions/intent/execute.ts', await stackAt(intent, '/api/v1/execute', transfers.map((transfer) => ({ transfer }))), showStack);
	} finally {
		await sb.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
