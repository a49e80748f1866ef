/**
 * Order > Get Status's wait, on the one wait of both nodes (nodes/n8n/wait.ts): from node version 3
 * it follows `GET /v1/sse/operations/{id}?token=<key>[&readToken=...]` (public-notes.md; the key
 * goes in the query, so it is listed as a secret of every message) and ends at once on
 * `awaiting_approval`; every version stops on Stop and reports its outcome as an execution hint.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { NormalizedStatus } from '../shared/orchestration/responseSchemas';
import { orderWaitEnd } from '../shared/waitRules';
import { openEventStream } from '../n8n/eventStream';
import { joinUrl } from '../shared/secureUrl';
import { cancelSignalOf, itemWait, reportWait, waitHint, waitUntilFinal, type WaitVia } from '../n8n/wait';
import type { WaitSettings } from '../n8n/waitParameters';
import type { ServiceAccess } from './service';

export type OrderWaitEnd = 'final' | 'timeout' | 'quoteExpired' | 'actionRequired';

export interface OrderToFollow {
	ctx: IExecuteFunctions;
	itemIndex: number;
	access: ServiceAccess;
	readToken: string | undefined;
	/** The first read; undefined while a quote has no order. */
	first: NormalizedStatus | undefined;
	read: () => Promise<NormalizedStatus | undefined>;
	settings: WaitSettings;
	/** Node version 3 on: the event stream (unless Follow By is Polling) and the actionRequired end. */
	live: boolean;
	followBy: 'stream' | 'polling';
	/** While no order exists: stop at the quote's expiresAt plus the grace. */
	quoteDeadline?: number;
	/** How the hint names what was waited for ("order ord_1", "quote q_1"). */
	subject: string;
}

export interface OrderWaitResult {
	state: NormalizedStatus | undefined;
	endedBy: OrderWaitEnd;
	via: WaitVia;
	fallback?: string;
}

/** The stream of one order: the key (and an order-bound read token for client keys) in the query. */
async function streamOf(o: OrderToFollow, orderId: string) {
	const creds = await o.ctx.getCredentials(o.access.credentialType);
	const key = String(creds.apiKey ?? '').trim();
	const qs: IDataObject = {
		token: key,
		...(o.readToken ? { readToken: o.readToken } : {}),
	};
	return await openEventStream(o.ctx, {
		url: joinUrl(o.access.baseUrl, `/v1/sse/operations/${encodeURIComponent(orderId)}`),
		qs,
		secrets: [key, String(creds.apiKey ?? ''), o.readToken],
		signal: cancelSignalOf(o.ctx),
	});
}

/** Where a stretch of the wait starts, when it must end, and whether it ends once an unpaid quote's order appears. */
interface Stretch {
	first: NormalizedStatus | undefined;
	deadline: number;
	startedAt: number;
	untilOrder: boolean;
}

/** One stretch of the wait: from `first` until an end, `deadline`, or (while unpaid) the order's appearance. */
async function waitStretch(o: OrderToFollow, { first, deadline, startedAt, untilOrder }: Stretch) {
	const orderId = first?.id;
	const streaming = o.live && o.followBy === 'stream' && orderId !== undefined;
	return await itemWait(
		o.ctx,
		o.itemIndex,
		waitUntilFinal<NormalizedStatus | undefined>({
			first,
			read: o.read,
			endOf: (current) => {
				const ended = current === undefined ? undefined : orderWaitEnd(current.status, current.isFinal, o.live);
				if (ended !== undefined) return ended;
				if (untilOrder && current !== undefined) return 'orderFound';
				const unpaidOver = current === undefined && o.quoteDeadline !== undefined && Date.now() >= o.quoteDeadline;
				return unpaidOver ? 'quoteExpired' : undefined;
			},
			intervalMs: o.settings.intervalMs,
			deadline,
			lastReadOnDeadline: false,
			signal: cancelSignalOf(o.ctx),
			follow: streaming ? async () => await streamOf(o, orderId) : undefined,
			statusOf: (state) => state?.status,
			startedAt,
		}),
	);
}

/**
 * Waits on one order as the node version says. An unpaid quote's order is polled for until it
 * appears; from version 3 the wait then follows that order's stream for the time left.
 */
export async function followOrder(o: OrderToFollow): Promise<OrderWaitResult> {
	const startedAt = Date.now();
	const deadline = startedAt + o.settings.timeoutMs;
	const streamLater = o.first === undefined && o.live && o.followBy === 'stream';
	let end = await waitStretch(o, { first: o.first, deadline, startedAt, untilOrder: streamLater });
	if (end.endedBy === 'orderFound') end = await waitStretch(o, { first: end.state, deadline, startedAt, untilOrder: false });
	const message = waitHint(`Item ${o.itemIndex}: ${o.subject}`, end, end.state?.status);
	reportWait(o.ctx, message, end.endedBy, end.fallback !== undefined);
	return {
		state: end.state,
		endedBy: end.endedBy as OrderWaitEnd,
		via: end.via,
		...(end.fallback ? { fallback: end.fallback } : {}),
	};
}
