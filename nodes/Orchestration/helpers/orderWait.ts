/**
 * Order > Get Status's wait (nodes/n8n/wait.ts). From node version 3 it follows
 * GET /v1/sse/operations/{id}?token=<key> (public-notes; the key in the query is a secret of every
 * message). `unfulfilled` is not final (public-notes): it is polled, since a replacement changes no
 * status and no frame announces it, and an RBF-replaced order's `supersededByOperationId` is followed.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { needsRepriceApproval, successorOf } from '../../shared/orchestration/orderView';
import type { NormalizedStatus } from '../../shared/orchestration/responseSchemas';
import { readLimitHeaders } from '../../shared/pacing';
import {
	StreamOpenPacers,
	STREAM_OPENS_PER_MINUTE,
	type StreamOpenDenial,
} from '../../shared/streamOpens';
import { orderWaitEnd, type OrderReading } from '../../shared/waitRules';
import { openEventStream } from '../../n8n/eventStream';
import { joinUrl } from '../../shared/secureUrl';
import { inField } from '../../shared/errors';
import { pathSegment } from '../../shared/inputs';
import { cancelSignalOf } from '../../n8n/transport';
import {
	reportWait,
	waitHint,
	waitUntilFinal,
	type Followed,
	type WaitSettings,
	type WaitVia,
} from '../../n8n/wait';
import { serviceAccess } from '../transport';

export type OrderWaitEnd = 'final' | 'timeout' | 'quoteExpired' | 'actionRequired';

export interface OrderToFollow {
	ctx: IExecuteFunctions;
	itemIndex: number;
	readToken: string | undefined;
	/** What a client key's read token is bound to: a quote's token opens no stream (status by quoteId only takes it). */
	readTokenFor?: 'quote' | 'order';
	/** The first read; undefined while a quote has no order. */
	first: NormalizedStatus | undefined;
	read: () => Promise<NormalizedStatus | undefined>;
	/** Reads the successor `orderId` of the replaced order `replaced`, with the same key and read token. */
	readSuccessor: (orderId: string, replaced: string) => Promise<NormalizedStatus>;
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
	/** The orders the wait left for their successors, first the one it began on (empty: none). */
	replaced: string[];
}

/** Successors followed at most in one wait (each is a replaced deposit): a longer chain is not followed further. */
export const MAX_SUCCESSORS = 8;
/** Event streams one wait opens at most; after that it polls (each return from `unfulfilled` opens one). */
const MAX_STREAMS = 4;

/** Stream openings per service origin, for the whole process: executions and items share the service's limit. */
const streamOpens = new StreamOpenPacers();

/** Forgets the pace of stream openings (tests). */
export function clearStreamOpens(): void {
	streamOpens.clear();
}

/** Why a wait polls instead of following the stream (its `waitFallback`). */
export const NO_STREAM = {
	credential: 'the credential turns the event stream off ("Allow Event Stream"): polled',
	quoteToken:
		"a client key's quote read token cannot open the event stream: polled status by quoteId",
	pace: `event-stream connections are paced to ${STREAM_OPENS_PER_MINUTE} a minute (the service's limit per IP) and this minute's are used: polled`,
	serviceLimit:
		"the service's event-stream connection limit is reached (its rate-limit headers said so): polled",
} as const satisfies Record<string, string> & Record<StreamOpenDenial, string>;

function originOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).origin;
	} catch {
		return baseUrl;
	}
}

/** The stream of one order: the key (and an order-bound read token for client keys) in the query; or why none opens. */
async function streamOf(o: OrderToFollow, orderId: string, openBy: number): Promise<Followed> {
	if (o.readTokenFor === 'quote') return { notOpened: NO_STREAM.quoteToken };
	const access = await serviceAccess(o.ctx);
	const creds = await o.ctx.getCredentials(access.credentialType);
	if (creds.allowEventStream === false) return { notOpened: NO_STREAM.credential };
	const pacer = streamOpens.for(originOf(access.baseUrl), Date.now());
	const denial = pacer.take(Date.now());
	if (denial !== undefined) return { notOpened: NO_STREAM[denial] };
	const key = String(creds.apiKey ?? '').trim();
	const qs: IDataObject = {
		token: key,
		...(o.readToken ? { readToken: o.readToken } : {}),
	};
	return await openEventStream(o.ctx, {
		url: joinUrl(
			access.baseUrl,
			`/v1/sse/operations/${inField('orderId', () => pathSegment(orderId))}`,
		),
		qs,
		secrets: [key, String(creds.apiKey ?? ''), o.readToken],
		signal: cancelSignalOf(o.ctx),
		openBy,
		onAnswer: (statusCode, headers) =>
			pacer.note(readLimitHeaders(statusCode, headers, Date.now()), Date.now()),
	});
}

/** Where a stretch of the wait starts, when it must end, how it follows the order, and what ends it early. */
interface Stretch {
	first: NormalizedStatus | undefined;
	read: () => Promise<NormalizedStatus | undefined>;
	deadline: number;
	startedAt: number;
	/** Follow the order's event stream (else poll). */
	stream: boolean;
	/** Ends once an unpaid quote's order appears (to follow its stream). */
	untilOrder: boolean;
	/** Ends once an `unfulfilled` order moves again (to follow its stream again). */
	untilMoved: boolean;
	/** Every order this wait has read: a successor among them is not followed again. */
	seen: ReadonlySet<string>;
}

/** How one stretch ended, besides the ends of the wait itself. */
type StretchEnd = 'orderFound' | 'unfulfilled' | 'resumed' | 'superseded';

function readingOf(state: NormalizedStatus, s: Stretch, successors: number): OrderReading {
	const order = { ...state.order, id: state.id };
	const next = successorOf(order, state.status);
	return {
		status: state.status,
		isFinal: state.isFinal,
		successor:
			next !== undefined && !s.seen.has(next) && successors < MAX_SUCCESSORS ? next : undefined,
		repriceApproval: needsRepriceApproval(order, state.status, state.isFinal),
	};
}

/** One stretch of the wait: from `first` until an end of the wait, `deadline`, or an end of the stretch. */
async function waitStretch(o: OrderToFollow, s: Stretch, successors: number) {
	const orderId = s.first?.id;
	return await waitUntilFinal<NormalizedStatus | undefined>({
		first: s.first,
		read: s.read,
		endOf: (current): OrderWaitEnd | StretchEnd | 'quoteExpired' | undefined => {
			if (current !== undefined) {
				const ended = orderWaitEnd(readingOf(current, s, successors), o.live);
				if (ended !== undefined) return ended;
				const unfulfilled = current.status === 'unfulfilled';
				if (s.stream && unfulfilled) return 'unfulfilled';
				if (s.untilMoved && !unfulfilled) return 'resumed';
				if (s.untilOrder) return 'orderFound';
				return undefined;
			}
			const unpaidOver = o.quoteDeadline !== undefined && Date.now() >= o.quoteDeadline;
			return unpaidOver ? 'quoteExpired' : undefined;
		},
		intervalMs: o.settings.intervalMs,
		deadline: s.deadline,
		lastReadOnDeadline: false,
		signal: cancelSignalOf(o.ctx),
		follow:
			s.stream && orderId !== undefined
				? async (openBy) => await streamOf(o, orderId, openBy)
				: undefined,
		statusOf: (state) => state?.status,
		startedAt: s.startedAt,
	});
}

/** How the hint names what was waited for: "order A (replaced by order B)", "quote Q (order A, replaced by order B)". */
function subjectOf(subject: string, replaced: string[], last: string | undefined): string {
	if (replaced.length === 0) return subject;
	const chain = [...replaced.slice(1), last].join(', then order ');
	return subject === `order ${replaced[0]}`
		? `${subject} (replaced by order ${chain})`
		: `${subject} (order ${replaced[0]}, replaced by order ${chain})`;
}

const STRETCH_ENDS: ReadonlySet<string> = new Set<StretchEnd>([
	'orderFound',
	'unfulfilled',
	'resumed',
	'superseded',
]);

/**
 * Waits on one order as the node version says. An unpaid quote's order is polled for until it
 * appears; from version 3 the wait then follows that order's stream for the time left, polls while
 * the order is `unfulfilled` and follows its stream again once it moves. A replaced order's
 * successor is followed in every version, for the time left.
 */
export async function followOrder(o: OrderToFollow): Promise<OrderWaitResult> {
	const startedAt = Date.now();
	const deadline = startedAt + o.settings.timeoutMs;
	const wantsStream = o.live && o.followBy === 'stream';
	const replaced: string[] = [];
	const seen = new Set<string>();
	let streams = 0;
	const stretchFrom = (first: NormalizedStatus | undefined, read: Stretch['read']): Stretch => {
		if (first) seen.add(first.id);
		const unfulfilled = first?.status === 'unfulfilled';
		const stream = wantsStream && first !== undefined && !unfulfilled && streams < MAX_STREAMS;
		if (stream) streams++;
		return {
			first,
			read,
			deadline,
			startedAt,
			stream,
			untilOrder: wantsStream && first === undefined,
			untilMoved: wantsStream && unfulfilled && streams < MAX_STREAMS,
			seen,
		};
	};
	let stretch = stretchFrom(o.first, o.read);
	let end = await waitStretch(o, stretch, replaced.length);
	while (STRETCH_ENDS.has(end.endedBy) && end.state !== undefined) {
		const current = end.state;
		if (end.endedBy === 'superseded') {
			const next = successorOf({ ...current.order, id: current.id }, current.status) as string;
			replaced.push(current.id);
			stretch = stretchFrom(
				await o.readSuccessor(next, current.id),
				async () => await o.readSuccessor(next, current.id),
			);
		} else {
			stretch = stretchFrom(current, stretch.read);
		}
		end = await waitStretch(o, stretch, replaced.length);
	}
	// polling while unfulfilled is no failure of the stream, but the output says why it polled
	const fallback =
		end.fallback ??
		(stretch.untilMoved && end.via === 'polling'
			? 'the order is unfulfilled: polled for a late deposit or a replacement'
			: undefined);
	const message = waitHint(
		`Item ${o.itemIndex}: ${subjectOf(o.subject, replaced, end.state?.id)}`,
		{ ...end, fallback },
		end.state?.status,
	);
	reportWait(o.ctx, message, end.endedBy, fallback !== undefined);
	return {
		state: end.state,
		endedBy: end.endedBy as OrderWaitEnd,
		via: end.via,
		...(fallback ? { fallback } : {}),
		replaced,
	};
}
