/**
 * What the examples talk to besides the service, as one local HTTP server the benchmark owns:
 *
 * - **the wallet** (the custody system behind example 1's *Hand off to wallet* steps, which stay as
 *   shipped, with their credential and `Idempotency-Key`): it pays the quote's deposit address at the
 *   sandbox (`/sandbox/deposits`, the outcome the month plans for that payout) or registers the Spark
 *   transfer with the gateway, and counts every hand-off per payout reference. It pays what it is
 *   asked to; a second payment to an address already paid is refused by the sandbox and answered as
 *   "already paid", as a custody system keyed on the reference would;
 * - **Slack**: the examples' Slack steps become HTTP requests to it with the same channel and text
 *   (n8n evaluates them as it would for Slack); it keeps every message, and answers the approval
 *   (*Ask a person*, send and wait) as the person does: accept or decline the ZeroConf offer.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payout, Scenario } from './plan';

/** Where a router message sends a person, from its headline (example 2's "What to do" routes). */
export type Route = 'zeroconf' | 'hold' | 'recovery' | 'superseded' | 'unfulfilled' | 'failed' | 'refunded' | 'completed' | 'report' | 'other';

const HEADLINES: Array<[RegExp, Route]> = [
	[/^\*:zap: ZeroConf offer on order/, 'zeroconf'],
	[/^\*:raised_hand: Order \S+ waits for approval/, 'hold'],
	[/^\*:rotating_light: Order \S+ needs a recovery decision/, 'recovery'],
	[/^\*:repeat: Deposit of order/, 'superseded'],
	[/^\*:hourglass: Order \S+ is unfulfilled/, 'unfulfilled'],
	[/^\*:x: Order \S+ failed/, 'failed'],
	[/^\*:leftwards_arrow_with_hook: Order \S+ was refunded/, 'refunded'],
	[/^\*:white_check_mark: Order /, 'completed'],
	[/^:(mag|white_check_mark): Reconciliation /, 'report'],
];

export interface SlackMessage {
	at: number;
	workflow: string;
	node: string;
	channel: string;
	text: string;
	route: Route;
	/** Order IDs the message names (a router message one, the reconciliation's report many). */
	orderIds: string[];
}

export interface Approval {
	at: number;
	payoutId: string;
	orderId: string;
	approved: boolean;
}

export interface Payment {
	at: number;
	payoutId: string;
	kind: 'deposit' | 'spark';
	/** paid: the sandbox took it; already paid: the address was paid before (refused); refused: any other error. */
	result: 'paid' | 'already paid' | 'refused';
	orderId?: string;
	depositAddress?: string;
	amount?: string;
	sparkTransferId?: string;
	error?: string;
}

/** What the sandbox's deposit endpoint takes for a service scenario (the others pay plainly). */
const OUTCOME: Partial<Record<Scenario, string>> = {
	failed: 'failed',
	refunded: 'refunded',
	unfulfilled: 'unfulfilled',
	lateDeposit: 'late_deposit',
	hold: 'awaiting_approval',
};

export function sparkTransferIdOf(payoutId: string): string {
	return createHash('md5').update(payoutId).digest('hex');
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	for await (const c of req) chunks.push(c as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

export class StandIns {
	readonly token = `bench-wallet-${randomBytes(8).toString('hex')}`;
	readonly handOffs = new Map<string, number>();
	readonly payments: Payment[] = [];
	readonly messages: SlackMessage[] = [];
	readonly approvals: Approval[] = [];
	/** Called after the wallet paid a deposit (the service's operator acts on some orders then). */
	onPaid?: (payout: Payout, payment: Payment) => Promise<void>;
	private server?: http.Server;
	url = '';

	constructor(
		private readonly sandbox: { orchestrationUrl: string; gatewayUrl: string },
		private readonly payouts: Map<string, Payout>,
	) {}

	async start(): Promise<void> {
		this.server = http.createServer((req, res) => {
			void this.handle(req, res).catch((error: Error) => answer(res, 500, { error: error.message }));
		});
		await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const body = await readJson(req);
		if (req.url === '/wallet') {
			if (req.headers.authorization !== `Bearer ${this.token}`) return answer(res, 401, { error: 'unauthorized' });
			const key = String(req.headers['idempotency-key'] ?? body.idempotencyKey ?? '');
			const payout = this.payouts.get(key);
			if (!payout) return answer(res, 400, { error: `no payout ${key} was planned` });
			this.handOffs.set(key, (this.handOffs.get(key) ?? 0) + 1);
			const payment = body.chain === 'spark' ? await this.sparkTransfer(payout, body) : await this.deposit(payout, body);
			this.payments.push(payment);
			if (payment.result === 'refused') return answer(res, 502, { error: payment.error });
			if (payment.result === 'paid' && payment.kind === 'deposit') await this.onPaid?.(payout, payment);
			return answer(res, 200, { status: payment.result, orderId: payment.orderId, sparkTransferId: payment.sparkTransferId });
		}
		if (req.url === '/slack') return answer(res, 200, this.slack(body));
		answer(res, 404, { error: 'not found' });
	}

	private async deposit(payout: Payout, body: Record<string, unknown>): Promise<Payment> {
		const base = { at: Date.now(), payoutId: payout.payoutId, kind: 'deposit' as const, depositAddress: String(body.to), amount: String(body.amount) };
		const outcome = OUTCOME[payout.scenario];
		const res = await fetch(`${this.sandbox.orchestrationUrl}/sandbox/deposits`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ depositAddress: base.depositAddress, amount: base.amount, ...(outcome ? { outcome } : {}) }),
		});
		const text = await res.text();
		if (res.status === 201) return { ...base, result: 'paid', orderId: (JSON.parse(text) as { orderId: string }).orderId };
		if (res.status === 409 && text.includes('already paid')) return { ...base, result: 'already paid' };
		return { ...base, result: 'refused', error: `${res.status} ${text.slice(0, 300)}` };
	}

	/** A Spark transfer of `amount` sats to the gateway's deposit address, its id derived from the payout reference. */
	private async sparkTransfer(payout: Payout, body: Record<string, unknown>): Promise<Payment> {
		const sparkTransferId = sparkTransferIdOf(payout.payoutId);
		const base = { at: Date.now(), payoutId: payout.payoutId, kind: 'spark' as const, amount: String(body.amount), sparkTransferId };
		const res = await fetch(`${this.sandbox.gatewayUrl}/sandbox/transfers`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ sparkTransferId, assetType: 'btc', amount: base.amount }),
		});
		if (res.status === 201) return { ...base, result: 'paid' };
		return { ...base, result: 'refused', error: `${res.status} ${(await res.text()).slice(0, 300)}` };
	}

	private slack(body: Record<string, unknown>): Record<string, unknown> {
		const at = Date.now();
		const channel = String(body.channel ?? '');
		if (body.node === 'Ask a person') {
			const message = String(body.message ?? '');
			const [, payoutId = '', orderId = ''] = /^Payout \*(\S+)\*: order (ord_\w+)/.exec(message) ?? [];
			const approved = this.payouts.get(payoutId)?.scenario !== 'zeroconfDecline';
			this.approvals.push({ at, payoutId, orderId, approved });
			return { data: { approved }, slackChannel: channel, slackMessage: message };
		}
		const text = String(body.text ?? '');
		const route = HEADLINES.find(([re]) => re.test(text))?.[1] ?? 'other';
		const orderIds = [...new Set([...text.matchAll(/\b(ord_[A-Za-z0-9]+)/g)].map((m) => m[1]))];
		this.messages.push({ at, workflow: String(body.workflow ?? ''), node: String(body.node ?? ''), channel, text, route, orderIds });
		return { ok: true, slackChannel: channel, slackText: text };
	}
}

interface WfNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: unknown;
	webhookId?: string;
	[k: string]: unknown;
}

/** The channel a Slack node names (a resource locator or a plain value). */
function channelOf(node: WfNode): unknown {
	const channel = node.parameters.channelId as { value?: unknown } | string | undefined;
	return typeof channel === 'object' && channel !== null ? channel.value : channel;
}

/**
 * Every Slack step of a workflow as an HTTP request to the stand-in's Slack: the same channel and
 * text (or approval message) expressions, so n8n evaluates what Slack would have received.
 */
export function withSlackToStandIn<T extends { nodes: WfNode[] }>(workflow: T, slackUrl: string): T {
	const nodes = workflow.nodes.map((node): WfNode => {
		if (node.type !== 'n8n-nodes-base.slack') return node;
		const approval = node.parameters.operation === 'sendAndWait';
		const fields: Array<[string, unknown]> = [
			['workflow', '={{ $workflow.id }}'],
			['node', node.name],
			['channel', channelOf(node)],
			approval ? ['message', node.parameters.message] : ['text', node.parameters.text],
		];
		return {
			...node,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials: undefined,
			webhookId: undefined,
			notes: 'Benchmark stand-in for Slack: the message goes to a local recorder.',
			parameters: {
				method: 'POST',
				url: slackUrl,
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: { parameters: fields.map(([name, value]) => ({ name, value })) },
				options: {},
			},
		};
	});
	return { ...workflow, nodes };
}
