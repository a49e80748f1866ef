/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON */
/**
 * The examples in a running n8n as a team runs them (test/e2e/unattended.e2e.ts and the browser
 * suite): imported with their Slack steps and wallet hand-offs as stand-ins, examples 2 and 3
 * published, the payout tables made by example 0, and the sandbox calls the tests drive orders with.
 */
import { randomUUID } from 'node:crypto';
import type { DataTables } from '../../scripts/lib/dataTables';
import { forSandbox, loadExamples, pickSandboxKeys, setUpPayoutTables, withSettings, withWalletStandIns } from '../../scripts/lib/examples';
import { endedExecution, errorOf, type Execution } from '../../scripts/lib/executions';
import { CUSTOM_PREFIX, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { OWNER, type E2eEnv } from './env';
import { SandboxClient, until } from './sandbox-client';
import { type ApprovalAnswer, withSlackStandIns } from './slackStandIns';

export const PAYOUTS = 'exRecurringPayout';
export const ROUTER = 'exOrderEventsSlack';
export const LEDGER_FLOW = 'exOrderEventsLedger';
export const RECONCILIATION = 'exDailyReconciliation';

export const ROUTE = { sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', refundAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' };

export interface Running {
	cookie: string;
	apiKey: string;
	tables: DataTables;
	sandbox: SandboxClient;
}

/** A copy of an example under its own id whose send-and-wait steps get `approval`, and values of one of its Set nodes replaced. */
export interface Variant {
	of: string;
	id: string;
	approval: ApprovalAnswer;
	values?: { node: string; set: Record<string, unknown> };
}

/**
 * Imports every example (stand-ins for Slack and the wallet, send-and-wait steps approved; example 1
 * reading every few seconds; example 7 reconciling `standingReference`) and the `variants`,
 * publishes examples 2 and 3, starts n8n, creates the payout tables with `schedule` in them, and
 * waits until both triggers are registered.
 */
export async function startWithExamples(env: E2eEnv, opts: { schedule: Array<Record<string, unknown>>; standingReference: string; variants?: Variant[] }): Promise<Running> {
	const examples = loadExamples();
	const prepare = (workflow: unknown, of: string, approval: ApprovalAnswer) => {
		let wf = withWalletStandIns(withSlackStandIns(workflow as never, approval), env.sandbox) as any;
		if (of === PAYOUTS) wf = withSettings(wf, { depositCheckSeconds: 1, orderCheckSeconds: 2, intentCheckSeconds: 1, quoteGraceSeconds: 30, maxOrderChecks: 90 });
		if (of === RECONCILIATION) wf = withSettings(wf, { standingReferences: `={{ ['${opts.standingReference}'] }}`, unpaidQuoteHours: 0 });
		return forSandbox(withNodePrefix(wf, CUSTOM_PREFIX), env.sandbox);
	};
	const variants = (opts.variants ?? []).map((v) => {
		const source = examples.find((e) => e.workflow.id === v.of);
		if (!source) throw new Error(`no example ${v.of}`);
		let wf = prepare({ ...source.workflow, id: v.id, name: `${source.workflow.name} (${v.approval})` }, v.of, v.approval);
		if (v.values) wf = withSettings(wf, v.values.set, v.values.node);
		return wf;
	});
	await env.n8n.importWorkflows([...examples.map((e) => prepare(e.workflow, e.workflow.id, 'approve')), ...variants]);
	for (const id of [ROUTER, LEDGER_FLOW]) {
		const r = await env.n8n.cli(['publish:workflow', `--id=${id}`]);
		if (r.code !== 0) throw new Error(`publish ${id}: ${r.stderr || r.stdout}`);
	}
	await env.n8n.start();
	const cookie = await env.n8n.setupOwner(OWNER);
	const apiKey = await env.n8n.createApiKey(cookie);
	const tables = await setUpPayoutTables(env.n8n, cookie, apiKey, opts.schedule);
	const sandbox = new SandboxClient(env.sandbox);
	// both published triggers registered (the router also a recovery subscription)
	await until('the two endpoints and the recovery subscription', async () => {
		const main = (await sandbox.webhooks()).filter((w) => w.url.startsWith(env.n8n.url));
		const recovery = (await sandbox.webhooks({ recovery: true })).filter((w) => w.url.startsWith(env.n8n.url));
		return main.length === 2 && recovery.length === 1 ? true : undefined;
	});
	return { cookie, apiKey, tables, sandbox };
}

/** Runs a workflow from its "Run now" trigger as the editor does and waits until it ended green. */
export async function runToEnd(env: E2eEnv, running: Running, workflowId: string): Promise<Execution> {
	const id = await env.n8n.runManually(running.cookie, workflowId, 'Run now');
	const ex = await endedExecution(env.n8n, running.apiKey, id, 300_000);
	if (ex.status !== 'success') throw new Error(`${workflowId} ended ${ex.status}: ${errorOf(ex)}`);
	return ex;
}

/** Calls to the sandbox (service endpoints with the server key, control endpoints without). */
export class SandboxCalls {
	constructor(private readonly env: E2eEnv) {}

	url(path: string): string {
		return `${this.env.sandbox.orchestrationUrl}${path}`;
	}

	asServer(extra: Record<string, string> = {}): Record<string, string> {
		return { authorization: `Bearer ${pickSandboxKeys(this.env.sandbox).server.key}`, ...extra };
	}

	async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
		const url = path.startsWith('http') ? path : this.url(path);
		const res = await fetch(url, {
			method,
			headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	}

	/** A quote taken with the server key (base USDC to bitcoin, exact in), unpaid. */
	async quote(): Promise<any> {
		return await this.call(
			'POST',
			'/v1/orchestration/quote',
			{ sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'bitcoin', destinationAsset: 'BTC', amount: '40000000', recipientAddress: ROUTE.refundAddress },
			this.asServer({ 'x-idempotency-key': randomUUID() }),
		);
	}

	/** A paid order that goes where its `outcome` leads (with `autoAdvance: false` it stays `processing`). */
	async order(opts: { outcome?: string; autoAdvance?: boolean } = {}): Promise<{ orderId: string; quoteId: string }> {
		const q = await this.quote();
		const paid = await this.call('POST', '/sandbox/deposits', { depositAddress: q.depositAddress, amount: q.amountIn, ...opts });
		return { orderId: paid.orderId, quoteId: q.quoteId };
	}

	/** A standing deposit address to base USDC; answers its EVM address. */
	async standingAddress(reference: string, recipient: string): Promise<string> {
		await this.call(
			'PUT',
			`/v1/standing-deposit-addresses/${reference}`,
			{ destination: { chain: 'base', asset: 'USDC', address: recipient } },
			this.asServer({ 'x-idempotency-key': randomUUID() }),
		);
		const instruction = await this.call('GET', `/v1/standing-deposit-addresses/${reference}`, undefined, this.asServer());
		return Object.values(instruction.addresses as Record<string, string>).find((a) => /^0x[0-9a-fA-F]{40}$/.test(a))!;
	}

	async pauseStandingAddress(reference: string): Promise<void> {
		await this.call('PATCH', `/v1/standing-deposit-addresses/${reference}/enabled`, { enabled: false }, this.asServer({ 'x-idempotency-key': randomUUID() }));
	}
}
