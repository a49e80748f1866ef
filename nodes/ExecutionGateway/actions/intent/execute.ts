/**
 * intent.execute: builds the canonical message (execution-gateway.md §2.4), signs it with the
 * credential's key, and submits the wire request (§2.1) to POST /api/v1/execute. Every rule the
 * client can check runs before anything is sent; u64 amounts never pass through a JS number.
 */
import { NodeApiError, type IDataObject, type IExecuteFunctions, type INodeProperties, type JsonObject } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';

import {
	closeCanonicalBody,
	parseJsonPreservingBigInts,
	serializeWireIntent,
	type WireDeposit,
} from '../../../shared/gateway/canonical';
import { describeValue } from '../../../shared/errors';
import { bytesToHex } from '../../../shared/gateway/hex';
import {
	canonicalBodyOf,
	checkAgainstNetwork,
	planIntent,
	wireIntent,
	type IntentHeader,
	type IntentInput,
	type IntentPlan,
} from '../../../shared/gateway/intentPlan';
import { sha256Bytes, sha256Hex, signDigestDer } from '../../../shared/gateway/keys';
import { ExecuteResponseSchema, normalizeIntentStatus, type NetworkInfo } from '../../../shared/gateway/responses';
import type { ItemReader } from '../../../n8n/items';
import { ItemError, itemErrorOf, ServiceError } from '../../../n8n/nodeErrors';
import { joinUrl } from '../../../n8n/transport';
import {
	authenticatedCall,
	forgetNetworkInfo,
	type GatewaySigner,
	getNetworkInfo,
	hintFor,
	signerOf,
	waitForFinal,
	waitOptionFields,
	waitOptionsOf,
} from '../../gateway';

const show = { resource: ['intent'], operation: ['execute'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Deposits',
		name: 'deposits',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Deposit',
		default: {},
		displayOptions: { show },
		description: 'Spark transfers that fund the intent; the list may be empty',
		options: [
			{
				displayName: 'Deposit',
				name: 'deposit',
				values: [
					{
						displayName: 'Spark Transfer ID',
						name: 'sparkTransferId',
						type: 'string',
						default: '',
						description:
							'ID of the Spark transfer as plain hex: 32 characters for BTC, 64 for tokens. A dashed UUID or a 0x prefix is accepted and normalized.',
					},
					dropdown(
						[
							['BTC', 'btc'],
							['Token', 'token'],
						],
						{ displayName: 'Asset Type', name: 'assetType' },
					),
					{
						displayName: 'Token ID',
						name: 'tokenId',
						type: 'string',
						// n8n's lint masks every parameter whose name contains "token"; the id itself is public.
						typeOptions: { password: true },
						default: '',
						displayOptions: { show: { assetType: ['token'] } },
						description: '32-byte token ID as 64 hex characters',
					},
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'string',
						default: '',
						placeholder: '100000',
						description:
							'Amount in base units (sats for BTC) as decimal digits, up to 18446744073709551615 (unsigned 64-bit)',
					},
				],
			},
		],
	},
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Deposit and Execute',
				value: 'execute',
				description: 'Credit the signer of an EVM transaction and run it',
				action: 'Deposit and execute an EVM transaction',
			},
			{
				name: 'Deposit Only',
				value: 'deposit',
				description: 'Credit the deposits to an EVM address',
				action: 'Deposit to an EVM address',
			},
		],
		default: 'deposit',
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0x0000000000000000000000000000000000000000',
		displayOptions: { show: { ...show, action: ['deposit'] } },
		description: 'EVM address credited with the deposits: 0x followed by 40 hex characters',
	},
	{
		displayName: 'EVM Transaction',
		name: 'evmTransaction',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0x02f8...',
		displayOptions: { show: { ...show, action: ['execute'] } },
		description: 'Hex of the signed EIP-1559 transaction (RLP); its signer is the account the deposits credit',
	},
	optionsCollection({ show }, [
		{
			displayName: 'Chain ID',
			name: 'chainId',
			type: 'number',
			default: 0,
			description:
				"Execution chain ID; 0 takes it from Network Info. A given value must equal the gateway's chain ID, checked before sending.",
		},
		{
			displayName: 'Deposits (JSON)',
			name: 'depositsJson',
			type: 'json',
			default: '[]',
			description:
				'Deposits as a JSON array of {sparkTransferId, assetType: "btc" | "token", tokenId, amount}, instead of the Deposits list. Write large amounts as strings or plain digits; they stay exact.',
		},
		{
			displayName: 'Expires At',
			name: 'expiresAt',
			type: 'string',
			default: '',
			placeholder: '2030-01-01T12:00:00Z',
			description:
				'Unix milliseconds or an ISO 8601 timestamp, at most 24 hours ahead. Empty: now + 15 minutes, kept the same when n8n retries the item.',
		},
		{
			displayName: 'Nonce',
			name: 'nonce',
			type: 'string',
			default: '',
			description:
				'Unique per keypair; the gateway refuses a reused nonce. Empty: 32 hex characters derived from workflow, execution, node, item and intent content, so a retried item cannot create a second intent. Set your own (for example an order ID) to deduplicate across executions.',
		},
		{
			displayName: 'Refuse When Paused',
			name: 'refuseWhenPaused',
			type: 'boolean',
			default: false,
			description:
				'Whether to refuse the intent, before sending, when Network Info reports paused. Off: paused is advisory (the live service may still admit intents) and the output carries a warning.',
		},
		...waitOptionFields,
	]),
];

/* Reading the item once, and its identity across n8n's Retry On Fail (nonce, expiry, what it remembers). */

/**
 * §2.1 u64 amount, exact: a string of digits, a bigint parsed from JSON text, or a JS number that
 * is a safe whole number. Anything else is refused before sending (a larger number has already
 * lost digits in JavaScript).
 */
function amountOf(read: ItemReader, field: string, value: unknown): string | bigint {
	if (typeof value === 'bigint') return value;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	const problem =
		typeof value === 'number'
			? `${value} is not a whole number of base units that JavaScript holds exactly (at most 2^53 - 1); pass it as a string of digits, for example "18446744073709551615"`
			: `must be a string of digits or a whole number, got ${describeValue(value)}; pass it as a string of digits`;
	throw read.fail(field, problem, 'invalid_amount');
}

function depositOf(read: ItemReader, entry: IDataObject, k: number): WireDeposit {
	const at = `deposits[${k}]`;
	const asset = entry.asset as IDataObject | undefined;
	const assetType = read.textValue(`${at}.assetType`, entry.assetType ?? asset?.type).toLowerCase();
	const tokenId = read.textValue(`${at}.tokenId`, entry.tokenId ?? asset?.tokenId);
	return {
		sparkTransferId: read.textValue(`${at}.sparkTransferId`, entry.sparkTransferId),
		asset: (assetType === 'token' ? { type: 'token', tokenId } : { type: assetType === '' ? 'btc' : assetType }) as WireDeposit['asset'],
		amount: amountOf(read, `${at}.amount`, entry.amount),
	};
}

/**
 * Deposits from the fixed collection, or from the "Deposits (JSON)" option when that holds a
 * non-empty array (u64 amounts beyond 2^53 are parsed exactly, never as a JS number).
 */
function readDeposits(read: ItemReader, options: IDataObject): WireDeposit[] {
	const fixed = read.parameter<IDataObject[]>('deposits.deposit', []);
	let list: unknown = options.depositsJson;
	const toDeposits = (entries: IDataObject[]) => entries.map((e, k) => depositOf(read, e, k));
	if (list === undefined || list === null || (typeof list === 'string' && list.trim() === '')) return toDeposits(fixed);
	if (typeof list === 'string') {
		try {
			list = parseJsonPreservingBigInts(list);
		} catch {
			throw read.fail('depositsJson', 'is not valid JSON', 'invalid_deposits');
		}
	}
	if (!Array.isArray(list) || list.some((e) => typeof e !== 'object' || e === null || Array.isArray(e))) {
		const problem = 'must be a JSON array of {sparkTransferId, assetType: "btc" | "token", tokenId?, amount} objects';
		throw read.fail('depositsJson', problem, 'invalid_deposits');
	}
	if (list.length === 0) return toDeposits(fixed);
	if (fixed.length > 0) {
		throw read.fail('depositsJson', 'set either the Deposits list or Deposits (JSON), not both', 'invalid_deposits');
	}
	return toDeposits(list as IDataObject[]);
}

/** "Expires At": unix milliseconds (number or digits) or an ISO 8601 timestamp with a zone. */
function parseExpiresAt(read: ItemReader, value: unknown): number {
	let ms: number;
	if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && /^\d+$/.test(value.trim())) ms = Number(value.trim());
	else if (typeof value === 'string') ms = Date.parse(value.trim());
	else ms = Number.NaN;
	if (!Number.isSafeInteger(ms) || ms < 0) {
		throw read.fail('expiresAt', 'must be unix milliseconds or an ISO 8601 timestamp', 'invalid_expires_at');
	}
	if (ms > 0 && ms < 1e12) {
		throw read.fail('expiresAt', `${ms} looks like unix seconds; the gateway expects unix milliseconds (§2.1)`, 'invalid_expires_at');
	}
	return ms;
}


type ActionFields = { recipient: string } | { evmTransaction: string };

/** §2.1: exactly one of recipient and evmTransaction. */
function readAction(read: ItemReader): ActionFields {
	const action = read.parameter<string>('action');
	const field = action === 'execute' ? 'evmTransaction' : 'recipient';
	const value = read.textParameter(field);
	if (value === '') {
		const problem =
			field === 'recipient'
				? 'is empty: a deposit-only intent needs exactly one action, a recipient address'
				: 'is empty: a deposit-and-execute intent needs exactly one action, a signed EIP-1559 transaction';
		throw read.fail(field, problem, 'invalid_action');
	}
	return field === 'recipient' ? { recipient: value } : { evmTransaction: value };
}

/** "Chain ID" of the options: 0 or empty means "from network info"; digits from an expression count as a number. */
function optionalChainId(options: IDataObject): number | undefined {
	const v = options.chainId;
	if (v === undefined || v === null || v === '' || v === 0) return undefined;
	return typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : (v as number);
}

/** The item's intent, read once: deposits, action and the options the user set. */
function readIntentInput(read: ItemReader, options: IDataObject): IntentInput {
	const hasExpiresAt = options.expiresAt !== undefined && options.expiresAt !== '';
	return {
		deposits: readDeposits(read, options),
		action: readAction(read),
		expiresAt: hasExpiresAt ? parseExpiresAt(read, options.expiresAt) : undefined,
		nonce: read.textValue('nonce', options.nonce) || undefined,
		chainId: optionalChainId(options),
	};
}

/** The item, read once: the plan's input and the options collection (wait options, paused policy). */
export function readExecuteItem(read: ItemReader): { input: IntentInput; options: IDataObject } {
	const options = read.options;
	return { input: readIntentInput(read, options), options };
}

/** Default lifetime of an intent: now + 15 minutes (well inside the 24 h horizon of §8). */
export const DEFAULT_EXPIRY_MS = 15 * 60 * 1000;
/** A remembered expiry is reused on retry only while this much time is left. */
const MIN_REMAINING_MS = 60 * 1000;

/**
 * Default nonce: 32 hex characters of a hash of workflow id, execution id, node name, item index and the intent's
 * content without nonce and expiry. n8n's Retry On Fail re-runs the node in the same execution,
 * so a retried item gets the same nonce and the gateway's replay protection (§2.1) stops a
 * second intent. Across executions the user pins a nonce (for example an order id).
 */
export function deriveNonce(read: ItemReader, contentWithoutNonce: string): string {
	const { ctx, itemIndex } = read;
	const seed = JSON.stringify([
		'executionGateway.nonce.v1',
		String(ctx.getWorkflow().id ?? ''),
		String(ctx.getExecutionId() ?? ''),
		ctx.getNode().name,
		itemIndex,
		contentWithoutNonce,
	]);
	// 32 lower-case hex characters, the form of the public client's random nonces (issue 10).
	return sha256Hex(seed).slice(0, 32);
}

/** What this execution remembers about one intent (nonce + content): its expiry and its submission. */
export interface RememberedIntent {
	expiresAt?: number;
	submission?: IDataObject;
	/** Digest of the message already sent once in this execution (its answer may have been lost). */
	sentDigest?: string;
}

/**
 * The node's execution context survives n8n's Retry On Fail (same run data), so a retried item
 * signs the same expiry (hence the same message and intent id) and an item that was already
 * accepted returns its first submission instead of failing with nonce_replayed.
 */
export function rememberedIntent(ctx: IExecuteFunctions, nonce: string, contentWithoutNonce: string): RememberedIntent {
	const context = ctx.getContext('node');
	const key = `intent:${sha256Hex(`${nonce}\n${contentWithoutNonce}`)}`;
	const remembered = (context[key] as RememberedIntent | undefined) ?? {};
	context[key] = remembered;
	return remembered;
}

/** The expiry to sign: the explicit one, a remembered one with time left, or now + 15 minutes. */
export function expiryFor(remembered: RememberedIntent, explicit: number | undefined, now: number): number {
	if (explicit !== undefined) return explicit;
	if (remembered.expiresAt !== undefined && remembered.expiresAt - now >= MIN_REMAINING_MS) return remembered.expiresAt;
	remembered.expiresAt = now + DEFAULT_EXPIRY_MS;
	return remembered.expiresAt;
}

/**
 * §2.3a `paused` is advisory on the live service (issue 10): by default the intent is sent and the
 * output carries a warning; with "Refuse When Paused" (the default of node version 1) it never leaves.
 */
function pausedWarning(read: ItemReader, info: NetworkInfo, options: IDataObject): string | undefined {
	const { ctx, itemIndex } = read;
	if (!info.paused) return undefined;
	const refuse = typeof options.refuseWhenPaused === 'boolean' ? options.refuseWhenPaused : ctx.getNode().typeVersion < 1.1;
	if (!refuse) return 'Network Info reported paused: true; the intent was submitted anyway (the flag is advisory). Check its status before relying on it.';
	throw new ItemError(ctx.getNode(), `The gateway network is paused (item ${itemIndex}): no intent is accepted now`, {
		itemIndex,
		description: 'Network Info reports paused: true and "Refuse When Paused" is on. Nothing was sent; try again once the gateway resumes.',
		errorCode: 'network_paused',
	});
}

/** Answers that mean the cached network info (§2.3a) is out of date. */
const STALE_NETWORK_INFO_CODES = new Set(['chain_id_mismatch', 'network_paused', 'below_min_deposit']);

/** Rebuilds a transport error for this item with the gateway hint; nonce_replayed says what it means here. */
function submissionError(read: ItemReader, error: unknown, sent: { nonce: string; gatewayUrl: string }): Error {
	const { ctx, itemIndex } = read;
	const { nonce, gatewayUrl } = sent;
	if (!(error instanceof ServiceError)) return itemErrorOf(ctx.getNode(), itemIndex, error);
	const code = error.errorCode;
	// The next item or run fetches network info again instead of trusting the cache.
	if (code && STALE_NETWORK_INFO_CODES.has(code)) forgetNetworkInfo(gatewayUrl);
	const description =
		code === 'nonce_replayed'
			? `Nonce "${nonce}" was already used by this keypair, so this intent was not submitted twice. Either an earlier attempt reached the gateway and its answer was lost, or this item already ran with the same nonce (an execution retried as a whole, or a pinned Nonce). Look the first submission up with Intent > Get; to submit a new intent on purpose, set a new Nonce.`
			: (error.description ?? hintFor(code));
	return new ServiceError(ctx.getNode(), (error.errorResponse ?? { message: error.message }) as JsonObject, {
		message: error.message,
		description: description ?? undefined,
		httpCode: error.httpCode ?? undefined,
		itemIndex,
		errorCode: code,
		attempts: error.attempts,
	});
}

function actionSummary(plan: IntentPlan): IDataObject {
	return plan.evm ? { signedTxHash: plan.evm.hash, evmSigner: plan.evm.fromChecksum } : { recipient: (plan.action as { recipient: string }).recipient };
}

/**
 * nonce_replayed for a signed message this node already sent (a retry in this call, or an earlier
 * try of this execution): the gateway accepted that first attempt (§2.1 nonce replay protection).
 */
function isOwnReplay(error: unknown, sentBefore: boolean): boolean {
	return error instanceof ServiceError && error.errorCode === 'nonce_replayed' && (sentBefore || error.attempts > 1);
}

/** The outcome of a lost answer: the intent exists once; its submission id was in the answer that never arrived. */
function acceptedEarlier(nonce: string, sent: IDataObject): IDataObject {
	return {
		outcome: 'accepted_earlier',
		submissionId: null,
		intentId: null,
		status: null,
		nonce,
		...sent,
		message: `The gateway accepted this intent earlier (nonce "${nonce}"): an earlier attempt reached it but its answer was lost, so the retry was refused as a replay (nonce_replayed) and no second intent was created. Its submission id was in the lost answer; find the intent by this nonce or messageDigest (Wait Until Final cannot follow it without that id).`,
	};
}

/** What is signed and sent: the plan under its final header, and the §2.4 body serialized once. */
interface Submission {
	signer: GatewaySigner;
	plan: IntentPlan;
	header: IntentHeader;
	canonicalBody: string;
}

/** Signs the plan's message under its final header and posts it (§2.1, §2.2); a lost answer is told apart. */
async function submit(read: ItemReader, intent: Submission, remembered: RememberedIntent): Promise<IDataObject> {
	const { ctx, itemIndex } = read;
	const { signer, plan, header } = intent;
	const digest = sha256Bytes(closeCanonicalBody(intent.canonicalBody, header));
	const signed = { signature: signDigestDer(digest, signer.privateKey), digestHex: bytesToHex(digest) };
	const sentBefore = remembered.sentDigest === signed.digestHex;
	remembered.sentDigest = signed.digestHex;
	const signature = { messageDigest: signed.digestHex, signerPublicKey: signer.publicKey, chainId: header.chainId };
	let body: unknown;
	try {
		const request = serializeWireIntent({ ...wireIntent(plan, header), signature: signed.signature });
		body = (await authenticatedCall<unknown>(read, { method: 'POST', url: joinUrl(signer.gatewayUrl, '/api/v1/execute'), body: request })).body;
	} catch (error) {
		if (!isOwnReplay(error, sentBefore)) throw submissionError(read, error, { nonce: header.nonce, gatewayUrl: signer.gatewayUrl });
		return acceptedEarlier(header.nonce, { ...signature, expiresAt: header.expiresAt, ...actionSummary(plan) });
	}
	const accepted = ExecuteResponseSchema.safeParse(body);
	if (!accepted.success) {
		const message = 'The gateway accepted the intent but its answer lacks submissionId, intentId or status (§2.2)';
		throw new NodeApiError(ctx.getNode(), { message }, { message, itemIndex });
	}
	const { submissionId, intentId, status } = accepted.data;
	const shown = { submissionId, intentId, status: normalizeIntentStatus(status) as string, ...signature };
	return { ...shown, nonce: header.nonce, expiresAt: header.expiresAt, ...actionSummary(plan) };
}

export async function execute(this: IExecuteFunctions, read: ItemReader): Promise<IDataObject> {
	const { input, options } = readExecuteItem(read);
	// Field rules of §2.1/§2.4/§8 (ids, amounts, recipient, signed transaction, expiry) before any request.
	const plan = read.plan(() => planIntent(input, Date.now()));

	const signer = await signerOf(read);
	const info = await getNetworkInfo(read, signer.gatewayUrl);
	const warning = pausedWarning(read, info, options);
	read.plan(() => checkAgainstNetwork(plan, info));
	const chainId = info.execution.chainId;

	// The body (chain, transfers, action) seeds the default nonce and is closed with the header to sign.
	const canonicalBody = canonicalBodyOf(plan, chainId);
	const nonce = plan.nonce ?? deriveNonce(read, canonicalBody);
	const remembered = rememberedIntent(this, nonce, canonicalBody);
	if (!remembered.submission) {
		const header = { chainId, nonce, expiresAt: expiryFor(remembered, plan.expiresAt, Date.now()) };
		remembered.submission = await submit(read, { signer, plan, header, canonicalBody }, remembered);
		if (remembered.submission.outcome === 'accepted_earlier') return { ...remembered.submission };
	}
	const submission: IDataObject = { ...(remembered.submission as IDataObject), ...(warning ? { warning } : {}) };
	const wait = waitOptionsOf(options);
	// After a lost answer the submission id is unknown, so there is nothing to poll.
	if (!wait.waitUntilFinal || submission.submissionId === null) return submission;
	const final = await waitForFinal(read, { gatewayUrl: signer.gatewayUrl, submissionId: String(submission.submissionId) }, wait);
	return { ...submission, ...final };
}
