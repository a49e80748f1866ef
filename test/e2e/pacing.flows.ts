/**
 * Payout batches for the pacing end-to-end test and bench/pacing.bench.ts: N items, one client-key
 * quote and one submit each, made by this package's nodes or by n8n's HTTP Request node.
 */
import { CREDS, T, linearWorkflow, type WfNode } from './workflows';

const BTC_ADDRESS = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

/** Start, then N items `{ n }` (a Set node's array split into items). */
function itemNodes(count: number): WfNode[] {
	return [
		{ name: 'Start', type: T.manual },
		{
			name: 'Batch',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'manual',
				assignments: { assignments: [{ id: 'n', name: 'n', value: `={{ Array.from({ length: ${count} }, (_, i) => i) }}`, type: 'array' }] },
				options: {},
			},
		},
		{ name: 'Items', type: 'n8n-nodes-base.splitOut', typeVersion: 1, executeOnce: false, parameters: { fieldToSplitOut: 'n', include: 'noOtherFields', options: {} } },
	];
}

/** The item's deposit transaction: distinct per item, so each submit is its own payment. */
const TX_HASH = "={{ '0x' + String($('Items').item.json.n).padStart(64, '0') }}";
/** 100 USDC plus the item number in cents: every quote differs. */
const AMOUNT = "={{ (100 + $('Items').item.json.n / 100).toFixed(2) }}";

/** The quote both nodes send (the modes are the Orchestration node's defaults, spelled out so the bodies are the same). */
const QUOTE_BODY = {
	sourceChain: 'base',
	sourceAsset: 'USDC',
	destinationChain: 'bitcoin',
	destinationAsset: 'BTC',
	amountMode: 'exact_in',
	deliveryMode: 'variable',
	recipientAddress: BTC_ADDRESS,
};

/** The versions a user who adds the node today gets (each node's defaultVersion in n8n 2.41.1 and this package). */
const ORCHESTRATION_VERSION = 3;
const HTTP_REQUEST_VERSION = 4.5;

export interface NodeBatchOptions {
	/** With submits (Quote > Create, then Order > Submit), or quotes only. */
	submit: boolean;
	concurrency?: number;
}

/** The batch with this package's Orchestration node (client key, default On Rate Limit: Wait). */
export function orchestrationBatch(id: string, count: number, opts: NodeBatchOptions) {
	const options = opts.concurrency ? { concurrency: opts.concurrency } : {};
	const nodes: WfNode[] = [
		...itemNodes(count),
		{
			name: 'Quote',
			type: T.orchestration,
			typeVersion: ORCHESTRATION_VERSION,
			executeOnce: false,
			credentials: CREDS.client,
			parameters: { authentication: 'clientKey', resource: 'quote', operation: 'create', ...QUOTE_BODY, amountFormat: 'decimal', amount: AMOUNT, options },
		},
	];
	if (opts.submit) {
		nodes.push({
			name: 'Submit',
			type: T.orchestration,
			typeVersion: ORCHESTRATION_VERSION,
			executeOnce: false,
			credentials: CREDS.client,
			parameters: { authentication: 'clientKey', resource: 'order', operation: 'submit', quoteId: '={{ $json.quoteId }}', sourceReference: 'txHash', txHash: TX_HASH, options },
		});
	}
	return linearWorkflow(id, `pacing ${id}`, nodes);
}

export interface HttpBatchOptions {
	submit: boolean;
	baseUrl: string;
	clientKey: string;
	/** HTTP Request batching (n items every interval ms) per call; none sends every item at once. */
	quoteBatch?: { batchSize: number; batchInterval: number };
	submitBatch?: { batchSize: number; batchInterval: number };
}

function httpPost(name: string, url: string, opts: { clientKey: string; key: string; body: string; batch?: { batchSize: number; batchInterval: number } }): WfNode {
	return {
		name,
		type: T.http,
		typeVersion: HTTP_REQUEST_VERSION,
		executeOnce: false,
		parameters: {
			method: 'POST',
			url,
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'Authorization', value: `Bearer ${opts.clientKey}` },
					{ name: 'X-Idempotency-Key', value: opts.key },
				],
			},
			sendBody: true,
			specifyBody: 'json',
			jsonBody: opts.body,
			options: opts.batch ? { batching: { batch: opts.batch } } : {},
		},
	};
}

/**
 * The same POSTs with n8n's HTTP Request node: the same bodies and one idempotency key per item and
 * call. Its items continue on error, so a denied request is a failed item, not a failed run.
 */
export function httpRequestBatch(id: string, count: number, opts: HttpBatchOptions) {
	const quoteBody = `={{ JSON.stringify({ ...${JSON.stringify(QUOTE_BODY)}, amount: String(100000000 + $('Items').item.json.n * 10000) }) }}`;
	const nodes: WfNode[] = [
		...itemNodes(count),
		httpPost('Quote', `${opts.baseUrl}/v1/orchestration/quote`, {
			clientKey: opts.clientKey,
			key: "={{ 'quote-' + $execution.id + '-' + $('Items').item.json.n }}",
			body: quoteBody,
			batch: opts.quoteBatch,
		}),
	];
	if (opts.submit) {
		nodes.push(
			httpPost('Submit', `${opts.baseUrl}/v1/orchestration/submit`, {
				clientKey: opts.clientKey,
				key: "={{ 'submit-' + $execution.id + '-' + $('Items').item.json.n }}",
				body: `={{ JSON.stringify({ quoteId: $json.quoteId, txHash: '0x' + String($('Items').item.json.n).padStart(64, '0') }) }}`,
				batch: opts.submitBatch,
			}),
		);
	}
	const wf = linearWorkflow(id, `pacing ${id}`, nodes);
	for (const node of wf.nodes) if (node.type === T.http) Object.assign(node, { onError: 'continueRegularOutput' });
	return wf;
}

/** What a batch left at the sandbox: its quotes and orders, duplicates, and the denied requests. */
export interface BatchTally {
	quotes: number;
	/** Quotes beyond one per idempotency key (a second effect of one item). */
	duplicateQuotes: number;
	orders: number;
	/** Orders beyond one per quote. */
	duplicateOrders: number;
	denied: { quote: number; submit: number };
}

interface SandboxState {
	quotes: Map<string, { quoteId: string; idempotencyKey: string | null }>;
	orders: Map<string, { quoteId: string | null }>;
	requests: Array<{ path: string; status: number }>;
}

export function tally(state: SandboxState): BatchTally {
	const quotes = [...state.quotes.values()];
	const orders = [...state.orders.values()];
	const keys = new Set(quotes.map((q) => q.idempotencyKey));
	const quoteIds = new Set(orders.map((o) => o.quoteId));
	const denied = (path: string) => state.requests.filter((r) => r.path === path && r.status === 429).length;
	return {
		quotes: quotes.length,
		duplicateQuotes: quotes.length - keys.size,
		orders: orders.length,
		duplicateOrders: orders.length - quoteIds.size,
		denied: { quote: denied('/v1/orchestration/quote'), submit: denied('/v1/orchestration/submit') },
	};
}

/** Run data of `n8n execute --rawOutput`: per node, its items and how long it ran. */
export interface NodeRun {
	items: Array<Record<string, unknown>>;
	executionTime: number;
	hints: Array<{ message: string }>;
}

export function nodeRuns(stdout: string): Record<string, NodeRun> {
	const start = stdout.search(/^\{$/m);
	if (start < 0) return {};
	const block = stdout.slice(start);
	const end = block.search(/^\}$/m);
	const run = JSON.parse(end >= 0 ? block.slice(0, end + 1) : block) as {
		data: { resultData: { runData: Record<string, Array<{ executionTime: number; hints?: Array<{ message: string }>; data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>> } };
	};
	const out: Record<string, NodeRun> = {};
	for (const [node, runs] of Object.entries(run.data.resultData.runData)) {
		out[node] = { items: (runs[0]?.data?.main?.[0] ?? []).map((i) => i.json), executionTime: runs[0]?.executionTime ?? 0, hints: runs[0]?.hints ?? [] };
	}
	return out;
}
