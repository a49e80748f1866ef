/**
 * Issue 24's shape, kept: an operation's bundle is its own file, its descriptions and the protocol
 * core. Operations reach the service and n8n's helpers only through the ports their router builds
 * and passes in (nodes/<Node>/actions/types.ts), imported as types, so no operation bundles the
 * HTTP door, the clients or the per-item loop. The counts are esbuild's metafile of an entry per
 * operation, as scripts/measure-shape.ts prints them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundledShippedFiles, isOperationSource } from '../../scripts/lib/operationBundle';
import { resources as orchestrationResources } from '../../nodes/Orchestration/actions/router';
import { resources as gatewayResources } from '../../nodes/ExecutionGateway/actions/router';

const ROOT = join(__dirname, '..', '..');

/** Every operation file: actions/<resource>/<operation>.ts exporting its execute. */
function operationFiles(node: string): string[] {
	const dir = join(ROOT, 'nodes', node, 'actions');
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile() && e.name.endsWith('.ts'))
		.map((e) => relative(ROOT, join(e.parentPath, e.name)))
		.filter((file) => isOperationSource(readFileSync(join(ROOT, file), 'utf8')))
		.sort();
}

/** What the routers wire in: an operation that bundles one of these bypasses its ports. */
const PORT_IMPLEMENTATIONS = [
	'nodes/n8n/transport.ts',
	'nodes/n8n/items.ts',
	'nodes/n8n/pacing.ts',
	'nodes/n8n/binaryOutput.ts',
	'nodes/n8n/orchestrationClient.ts',
	'nodes/Orchestration/itemService.ts',
	'nodes/Orchestration/paging.ts',
	'nodes/Orchestration/orderWait.ts',
	'nodes/Orchestration/claimWait.ts',
	'nodes/n8n/wait.ts',
];

describe('one concept a file, ports for the glue (issue 24)', () => {
	jest.setTimeout(60_000);

	it('Quote > Create bundles at most 12 files', async () => {
		const files = await bundledShippedFiles('nodes/Orchestration/actions/quote/create.ts');
		expect(files.length).toBeLessThanOrEqual(12);
		// The core's quote plan is in it: the count is of real code, not of an empty entry.
		expect(files).toContain('nodes/shared/orchestration/quotePlan.ts');
	});

	it('no Orchestration operation bundles the transport, the client or the per-item loop', async () => {
		const operations = operationFiles('Orchestration');
		// One file per operation the router dispatches to.
		expect(operations.length).toBe(Object.values(orchestrationResources).flatMap((ops) => Object.keys(ops)).length);
		for (const file of operations) {
			const bypassing = (await bundledShippedFiles(file)).filter((f) => PORT_IMPLEMENTATIONS.includes(f));
			expect({ file, bypassing }).toEqual({ file, bypassing: [] });
		}
	});
});

/** The Execution Gateway's port implementations (itemGateway.ts binds them to the item): no operation bundles them. */
const GATEWAY_PORT_IMPLEMENTATIONS = [
	'nodes/n8n/transport.ts',
	'nodes/n8n/items.ts',
	'nodes/n8n/wait.ts',
	'nodes/ExecutionGateway/gateway.ts',
	'nodes/ExecutionGateway/intentIdentity.ts',
	'nodes/ExecutionGateway/intentSubmit.ts',
	'nodes/ExecutionGateway/intentWait.ts',
	'nodes/ExecutionGateway/itemGateway.ts',
];

describe('Execution Gateway operations (issue 24)', () => {
	it('bundle their descriptions and the core only: Intent > Execute at most 12 files, no operation a port implementation', async () => {
		const operations = operationFiles('ExecutionGateway');
		expect(operations.length).toBe(Object.values(gatewayResources).flatMap((ops) => Object.keys(ops)).length);
		const bundles = new Map(await Promise.all(operations.map(async (file) => [file, await bundledShippedFiles(file)] as const)));
		const execute = bundles.get('nodes/ExecutionGateway/actions/intent/execute.ts') ?? [];
		// The core's intent plan is in it: the count is of real code, not of an empty entry.
		expect(execute).toContain('nodes/shared/gateway/intentPlan.ts');
		expect(execute.length).toBeLessThanOrEqual(12);
		const bypassing = [...bundles].map(([file, files]) => ({ file, ports: files.filter((f) => GATEWAY_PORT_IMPLEMENTATIONS.includes(f)) }));
		expect(bypassing.filter(({ ports }) => ports.length > 0)).toEqual([]);
	}, 60_000);
});
