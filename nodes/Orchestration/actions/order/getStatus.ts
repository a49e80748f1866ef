/** order.getStatus: GET /v1/orchestration/status by id, quoteId or txHash (orchestration-service.md §4.6), optionally until final (helpers/orderWait.ts). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { ItemError } from '../../../n8n/errors';
import { getNodeParameter, invalidField, textParameter } from '../../../n8n/items';
import { cancelSignalOf } from '../../../n8n/transport';
import {
	DEFAULT_WAIT_TIMEOUT_SECONDS,
	firstRead,
	waitParameters,
	waitSettingsOf,
	type WaitSettings,
} from '../../../n8n/wait';
import { ProtocolError } from '../../../shared/errors';
import { FINAL_ORDER_STATUSES } from '../../../shared/orchestration/enums';
import {
	actionRequiredOf,
	followedBy,
	orderWithFormattedAmounts,
} from '../../../shared/orchestration/orderView';
import {
	normalizeStatusResponse,
	type NormalizedStatus,
} from '../../../shared/orchestration/responseSchemas';
import { concurrencyOption, forVersions, showFor, sourceChainField } from '../common.descriptions';
import { followOrder, type OrderWaitResult } from '../../helpers/orderWait';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest, serviceAccess } from '../../transport';

/** Node versions whose wait follows the event stream and ends on an order that needs an answer. */
export const LIVE_WAIT_VERSION = 3;
/** How long after an unpaid quote's expiresAt a late deposit may still create its order. */
export const DEFAULT_QUOTE_GRACE_SECONDS = 300;

const show = showFor('order', ['getStatus']);
const FINALS = FINAL_ORDER_STATUSES.join(', ').replace(/, (?=[^,]*$)/, ' or ');
const WAIT_UNTIL = `the order is ${FINALS}. Unfulfilled is not final (a late deposit can resume it): the wait goes on through it, and follows the order that replaced it when it names one.`;
const showWait = showFor('order', ['getStatus'], { waitUntilFinal: [true] });

export const description: INodeProperties[] = [
	dropdown(
		[
			['Order ID', 'id', 'The ID of an order (submit and onramp return it as orderId)'],
			['Quote ID', 'quoteId', 'The quote; its order appears once the deposit is paid'],
			[
				'Transaction Hash',
				'txHash',
				'The transaction that paid the deposit, on its source chain: finds a stuck deposit',
			],
		],
		{ displayName: 'Look Up By', name: 'lookupBy', displayOptions: show },
	),
	{
		displayName: 'Order ID',
		name: 'id',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showFor('order', ['getStatus'], { lookupBy: ['id'] }),
	},
	{
		displayName: 'Quote ID',
		name: 'quoteId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showFor('order', ['getStatus'], { lookupBy: ['quoteId'] }),
	},
	{
		displayName: 'Transaction Hash',
		name: 'txHash',
		type: 'string',
		required: true,
		default: '',
		description: 'Hash (or Bitcoin txid) of the transaction that paid the deposit address',
		displayOptions: showFor('order', ['getStatus'], { lookupBy: ['txHash'] }),
	},
	sourceChainField(showFor('order', ['getStatus'], { lookupBy: ['txHash'] })),
	{
		displayName: 'Read Token',
		name: 'readToken',
		type: 'string',
		typeOptions: { password: true },
		default: '={{ $json.readToken }}',
		description:
			'Token returned by Create Quote (for a Quote ID) or by Submit / Create Onramp (for an Order ID). Client-key reads need it. It is a bearer-like token: pass it on, do not publish it.',
		displayOptions: showFor('order', ['getStatus'], { authentication: ['clientKey'] }),
	},
	...waitParameters(show.show ?? {}, WAIT_UNTIL, [
		{
			displayName: 'Unpaid Quote Grace (Seconds)',
			name: 'quoteGraceSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_QUOTE_GRACE_SECONDS,
			description:
				"While the quote has no order yet (not paid), keep polling until the quote's expiry plus this grace, for a deposit paid just before expiry",
			displayOptions: showFor('order', ['getStatus'], {
				waitUntilFinal: [true],
				lookupBy: ['quoteId'],
			}),
		},
		dropdown(
			[
				[
					'Event Stream',
					'stream',
					'Follow the order live (scope orders:sse). The service takes the API key in the stream URL\'s query (?token=), where proxies and access logs may record it: turn off "Allow Event Stream" on the credential to always poll. Falls back to polling when the stream is refused, drops, or its openings are at the service\'s limit (30 a minute per IP).',
				],
				[
					'Polling',
					'polling',
					'Read the status every Poll Interval (the key travels only in the Authorization header)',
				],
			],
			{
				displayName: 'Follow By',
				name: 'followBy',
				description:
					"How the wait learns of a change. By Quote ID, it polls until the quote is paid and its order exists, then follows that order (a client key's quote read token cannot open the stream: it keeps polling by quote ID). With the event stream, the key goes in the URL's query, as the service requires.",
				displayOptions: forVersions(showWait, [{ _cnd: { gte: LIVE_WAIT_VERSION } }]),
			},
		),
	]),
	optionsCollection(show, [concurrencyOption]),
];

/** A read of one order's view (status, or order by quote); client keys send the read token (§5). */
async function readView(l: Lookup, path: string): Promise<unknown> {
	const res = await orchestrationApiRequest.call(l.ctx, 'GET', path, undefined, {
		qs: l.qs,
		headers: l.readToken ? { 'X-Read-Token': l.readToken } : undefined,
		secrets: [l.readToken],
		hints: l.hints,
		itemIndex: l.i,
	});
	return res.body;
}

async function readStatus(l: Lookup, qs = l.qs): Promise<NormalizedStatus> {
	const body = await readView({ ...l, qs }, '/v1/orchestration/status');
	let problem: unknown;
	try {
		return normalizeStatusResponse(body);
	} catch (error) {
		problem = error;
	}
	// An answer, not the item's input: its own message, the schema's complaint as the description.
	throw new ItemError(l.ctx.getNode(), 'The status response has an unexpected shape', {
		itemIndex: l.i,
		description: problem instanceof ProtocolError ? problem.message : String(problem),
	});
}

/** The one output shape: the order fields, then id, status, stage names and details, isFinal. */
export function statusOutput(state: NormalizedStatus): IDataObject {
	return {
		...(state.order as IDataObject),
		id: state.id,
		status: state.status,
		stages: state.stages,
		stageDetails: state.stageDetails as IDataObject[] | string[],
		isFinal: state.isFinal,
	};
}

/** One item's status lookup: the query and the read token. */
interface Lookup {
	ctx: IExecuteFunctions;
	i: number;
	qs: IDataObject;
	readToken: string | undefined;
	/** Hints for this lookup's error codes (a quote without an order answers 404). */
	hints?: Record<string, string>;
}

/** A 404 while waiting by quote ID: the quote has no order yet (public-notes: null until funded). */
function isNotFound(error: unknown): boolean {
	return (error as { httpCode?: string }).httpCode === '404';
}

/** The status, or undefined while a quote has no order (404) and `orNotFound` is set. */
async function readOrder(l: Lookup, orNotFound: boolean): Promise<NormalizedStatus | undefined> {
	return await readStatus(l).catch(async (error: unknown) =>
		orNotFound && isNotFound(error) ? undefined : await Promise.reject(error),
	);
}

/**
 * The successor of a replaced order, read by its ID with the same key and read token. A client
 * key's read token is bound to one order (spec §5), so the service may refuse it for the successor:
 * the error then names both orders and the way around.
 */
async function readSuccessor(
	l: Lookup,
	orderId: string,
	replaced: string,
): Promise<NormalizedStatus> {
	return await readStatus(l, { id: orderId }).catch(async (error: unknown) => {
		const httpCode = (error as { httpCode?: string }).httpCode;
		if (httpCode !== '403' && httpCode !== '404') return await Promise.reject(error);
		return await Promise.reject(
			new ItemError(
				l.ctx.getNode(),
				`Order ${replaced} was replaced by order ${orderId} (supersededByOperationId), which this key cannot read (HTTP ${httpCode})`,
				{
					itemIndex: l.i,
					description:
						"A client key's read token is bound to one order: read the successor with a server key, or with a read token issued for it. Until the successor completes, do not pay again: the first order's deposit moved to it.",
				},
			),
		);
	});
}

/** The quote's expiresAt, from GET /v1/orchestration/order?quoteId= (public-notes); a 404 means no such quote. */
async function quoteExpiry(l: Lookup): Promise<string | undefined> {
	const body = (await readView(l, '/v1/orchestration/order')) as IDataObject | undefined;
	const expiresAt = body?.expiresAt;
	return typeof expiresAt === 'string' && !Number.isNaN(Date.parse(expiresAt))
		? expiresAt
		: undefined;
}

interface WaitResult extends OrderWaitResult {
	expiresAt?: string;
}

/** Waits (stream or polling, never faster than every 3 s) until final, the wait timeout, an unpaid quote's end, or (version 3) an order that needs an answer. */
async function waitForOrder(
	l: Lookup,
	first: NormalizedStatus | undefined,
	settings: WaitSettings,
): Promise<WaitResult> {
	const byQuote = 'quoteId' in l.qs;
	const expiresAt = byQuote && first === undefined ? await quoteExpiry(l) : undefined;
	const graceSeconds = Math.max(
		0,
		Number(getNodeParameter(l.ctx, 'quoteGraceSeconds', l.i, DEFAULT_QUOTE_GRACE_SECONDS)) || 0,
	);
	const live = l.ctx.getNode().typeVersion >= LIVE_WAIT_VERSION;
	const result = await followOrder({
		ctx: l.ctx,
		itemIndex: l.i,
		readToken: l.readToken,
		// spec §5: the token /quote gives a client key is bound to the quote, and only status by quoteId takes it
		readTokenFor: l.readToken === undefined ? undefined : byQuote ? 'quote' : 'order',
		first,
		read: async () => await readOrder(l, byQuote),
		readSuccessor: async (orderId, replaced) => await readSuccessor(l, orderId, replaced),
		settings,
		live,
		followBy:
			live && getNodeParameter(l.ctx, 'followBy', l.i, 'stream') === 'polling'
				? 'polling'
				: 'stream',
		quoteDeadline:
			expiresAt === undefined ? undefined : Date.parse(expiresAt) + graceSeconds * 1000,
		subject: first ? `order ${first.id}` : `quote ${String(l.qs.quoteId)}`,
	});
	return { ...result, expiresAt };
}

/** What went wrong when waiting did not reach a final status, for the error and its hint. */
function waitFailure(l: Lookup, wait: WaitResult): ItemError {
	const { ctx, i: itemIndex } = l;
	const timeoutSeconds =
		Number(getNodeParameter(ctx, 'waitTimeoutSeconds', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS)) ||
		0;
	const hint =
		'Raise "Timeout (Seconds)", or set "On Timeout" to Return Last State to continue with the last status.';
	if (wait.endedBy === 'quoteExpired') {
		return new ItemError(
			ctx.getNode(),
			`Quote ${String(l.qs.quoteId)} expired at ${wait.expiresAt} and no order appeared within the grace period: its deposit was not paid`,
			{
				itemIndex,
				description:
					'Create a new quote, or raise "Unpaid Quote Grace (Seconds)" for deposits that take longer to be seen.',
			},
		);
	}
	const replaced =
		wait.replaced.length > 0 && wait.state
			? ` ${wait.state.id} (which replaced order ${wait.replaced[0]})`
			: '';
	const what = wait.state
		? `The order${replaced} is still "${wait.state.status}"`
		: `Quote ${String(l.qs.quoteId)} still has no order (not paid yet)`;
	const unfulfilled =
		wait.state?.status === 'unfulfilled'
			? " An unfulfilled order is not final: a late deposit can still resume it, so do not pay again; read it again later (or loop through n8n's Wait node, as example 5 does)."
			: '';
	return new ItemError(ctx.getNode(), `${what} after waiting ${timeoutSeconds} s (wait timeout)`, {
		itemIndex,
		description: hint + unfulfilled,
	});
}

/** Output when waiting ended before the quote got an order. */
function noOrderOutput(l: Lookup, wait: WaitResult): IDataObject {
	return {
		quoteId: l.qs.quoteId as string,
		id: null,
		status: null,
		stages: [],
		stageDetails: [],
		isFinal: false,
		orderFound: false,
		...(wait.expiresAt ? { quoteExpiresAt: wait.expiresAt } : {}),
	};
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const lookupBy = lookupOf(this, i);
	const identifier = requiredText(this, i, lookupBy);
	const readToken = (await serviceAccess(this)).isClientKey
		? textParameter(this, 'readToken', i) || undefined
		: undefined;
	const qs: IDataObject = { [lookupBy]: identifier };
	if (lookupBy === 'txHash') qs.sourceChain = requiredText(this, i, 'sourceChain');
	const lookup: Lookup = { ctx: this, i, qs, readToken, hints: LOOKUP_HINTS[lookupBy] };
	const settings = waitSettingsOf(this, i);
	const wait = settings.waitUntilFinal;

	// waiting by quote ID keeps polling through 404s: the order appears only once the deposit is paid
	const read = async () => await readOrder(lookup, wait && lookupBy === 'quoteId');
	const first = wait ? await firstRead(cancelSignalOf(this), read) : await read();
	const result: WaitResult = wait
		? await waitForOrder(lookup, first, settings)
		: { state: first, endedBy: 'final', via: 'polling', replaced: [] };
	const ended = result.endedBy === 'final' || result.endedBy === 'actionRequired';
	if (!ended && settings.onTimeout !== 'returnLastState') throw waitFailure(lookup, result);
	const out = result.state
		? await statusWithAmounts(lookup, result.state)
		: noOrderOutput(lookup, result);
	if (wait) {
		out.waitTimedOut = !ended;
		out.waitEndedBy = result.endedBy;
		if (result.replaced.length > 0)
			Object.assign(out, { originalOrderId: result.replaced[0], successorOrderId: out.id });
		if (this.getNode().typeVersion >= LIVE_WAIT_VERSION) Object.assign(out, followedBy(result));
		if (result.endedBy === 'actionRequired') Object.assign(out, actionRequiredOf(out));
	}
	// The read token travels on so the next node can read this order again by expression.
	if (readToken) out.readToken = readToken;
	return out;
}

async function statusWithAmounts(l: Lookup, state: NormalizedStatus): Promise<IDataObject> {
	const catalogue = await catalogueFor(l.ctx, l.i, false);
	return catalogue
		? orderWithFormattedAmounts(statusOutput(state), catalogue)
		: statusOutput(state);
}

type LookupBy = 'id' | 'quoteId' | 'txHash';

function lookupOf(ctx: IExecuteFunctions, i: number): LookupBy {
	const chosen = textParameter(ctx, 'lookupBy', i);
	return chosen === 'quoteId' || chosen === 'txHash' ? chosen : 'id';
}

function requiredText(ctx: IExecuteFunctions, i: number, name: string): string {
	const value = textParameter(ctx, name, i);
	if (value === '') throw invalidField(ctx, i, name, 'is required');
	return value;
}

/** public-notes: status by quote ID answers 404 until a deposit is detected; by txHash until the deposit is seen. */
const LOOKUP_HINTS: Record<LookupBy, Record<string, string> | undefined> = {
	id: undefined,
	quoteId: {
		not_found:
			'A quote has no order until its deposit is detected. Use Order > Get by Quote to see whether it is paid (funded: true/false) without an error, or turn on "Wait Until Final".',
	},
	txHash: {
		not_found:
			'No order of this partner was created by this transaction on this chain (yet): check the chain, or try again once the deposit is detected.',
	},
};
