/**
 * One item of Intent > Execute (execution-gateway.md §2.1): its parameters read once into the
 * plan's input (deposits, action, the options the user set), and its identity across n8n's Retry
 * On Fail (the derived nonce, the expiry and the submission it remembers). Every problem becomes
 * an error naming the field and the item, before anything is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { parseJsonPreservingBigInts, type WireDeposit } from '../../../shared/gateway/canonical';
import type { IntentInput } from '../../../shared/gateway/intentPlan';
import { sha256Hex } from '../../../shared/gateway/keys';
import { fieldError } from '../../../transport/nodeErrors';
import { describeValue, stringParam } from '../../gateway';

/**
 * §2.1 u64 amount, exact: a string of digits, a bigint parsed from JSON text, or a JS number that
 * is a safe whole number. Anything else is refused before sending (a larger number has already
 * lost digits in JavaScript).
 */
function amountOf(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string | bigint {
	if (typeof value === 'bigint') return value;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	const problem =
		typeof value === 'number'
			? `${value} is not a whole number of base units that JavaScript holds exactly (at most 2^53 - 1); pass it as a string of digits, for example "18446744073709551615"`
			: `must be a string of digits or a whole number, got ${describeValue(value)}; pass it as a string of digits`;
	throw fieldError(ctx.getNode(), itemIndex, field, problem, 'invalid_amount');
}

function depositOf(ctx: IExecuteFunctions, itemIndex: number, entry: IDataObject, k: number): WireDeposit {
	const at = `deposits[${k}]`;
	const asset = entry.asset as IDataObject | undefined;
	const assetType = stringParam(ctx, itemIndex, `${at}.assetType`, entry.assetType ?? asset?.type).toLowerCase();
	const tokenId = stringParam(ctx, itemIndex, `${at}.tokenId`, entry.tokenId ?? asset?.tokenId);
	return {
		sparkTransferId: stringParam(ctx, itemIndex, `${at}.sparkTransferId`, entry.sparkTransferId),
		asset: (assetType === 'token' ? { type: 'token', tokenId } : { type: assetType === '' ? 'btc' : assetType }) as WireDeposit['asset'],
		amount: amountOf(ctx, itemIndex, `${at}.amount`, entry.amount),
	};
}

/**
 * Deposits from the fixed collection, or from the "Deposits (JSON)" option when that holds a
 * non-empty array (u64 amounts beyond 2^53 are parsed exactly, never as a JS number).
 */
export function readDeposits(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): WireDeposit[] {
	const fixed = ctx.getNodeParameter('deposits.deposit', itemIndex, []) as IDataObject[];
	let list: unknown = options.depositsJson;
	const toDeposits = (entries: IDataObject[]) => entries.map((e, k) => depositOf(ctx, itemIndex, e, k));
	if (list === undefined || list === null || (typeof list === 'string' && list.trim() === '')) return toDeposits(fixed);
	if (typeof list === 'string') {
		try {
			list = parseJsonPreservingBigInts(list);
		} catch {
			throw fieldError(ctx.getNode(), itemIndex, 'depositsJson', 'is not valid JSON', 'invalid_deposits');
		}
	}
	if (!Array.isArray(list) || list.some((e) => typeof e !== 'object' || e === null || Array.isArray(e))) {
		throw fieldError(
			ctx.getNode(),
			itemIndex,
			'depositsJson',
			'must be a JSON array of {sparkTransferId, assetType: "btc" | "token", tokenId?, amount} objects',
			'invalid_deposits',
		);
	}
	if (list.length === 0) return toDeposits(fixed);
	if (fixed.length > 0) {
		throw fieldError(ctx.getNode(), itemIndex, 'depositsJson', 'set either the Deposits list or Deposits (JSON), not both', 'invalid_deposits');
	}
	return toDeposits(list as IDataObject[]);
}

/** "Expires At": unix milliseconds (number or digits) or an ISO 8601 timestamp with a zone. */
export function parseExpiresAt(ctx: IExecuteFunctions, itemIndex: number, value: unknown): number {
	let ms: number;
	if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && /^\d+$/.test(value.trim())) ms = Number(value.trim());
	else if (typeof value === 'string') ms = Date.parse(value.trim());
	else ms = Number.NaN;
	if (!Number.isSafeInteger(ms) || ms < 0) {
		throw fieldError(ctx.getNode(), itemIndex, 'expiresAt', 'must be unix milliseconds or an ISO 8601 timestamp', 'invalid_expires_at');
	}
	if (ms > 0 && ms < 1e12) {
		throw fieldError(
			ctx.getNode(),
			itemIndex,
			'expiresAt',
			`${ms} looks like unix seconds; the gateway expects unix milliseconds (§2.1)`,
			'invalid_expires_at',
		);
	}
	return ms;
}


type ActionFields = { recipient: string } | { evmTransaction: string };

/** §2.1: exactly one of recipient and evmTransaction. */
function readAction(ctx: IExecuteFunctions, itemIndex: number): ActionFields {
	const action = ctx.getNodeParameter('action', itemIndex) as string;
	const field = action === 'execute' ? 'evmTransaction' : 'recipient';
	const value = stringParam(ctx, itemIndex, field, ctx.getNodeParameter(field, itemIndex, '') as unknown);
	if (value === '') {
		const problem =
			field === 'recipient'
				? 'is empty: a deposit-only intent needs exactly one action, a recipient address'
				: 'is empty: a deposit-and-execute intent needs exactly one action, a signed EIP-1559 transaction';
		throw fieldError(ctx.getNode(), itemIndex, field, problem, 'invalid_action');
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
function readIntentInput(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): IntentInput {
	const hasExpiresAt = options.expiresAt !== undefined && options.expiresAt !== '';
	return {
		deposits: readDeposits(ctx, itemIndex, options),
		action: readAction(ctx, itemIndex),
		expiresAt: hasExpiresAt ? parseExpiresAt(ctx, itemIndex, options.expiresAt) : undefined,
		nonce: stringParam(ctx, itemIndex, 'nonce', options.nonce) || undefined,
		chainId: optionalChainId(options),
	};
}

/** The item, read once: the plan's input and the options collection (wait options, paused policy). */
export function readExecuteItem(ctx: IExecuteFunctions, itemIndex: number): { input: IntentInput; options: IDataObject } {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return { input: readIntentInput(ctx, itemIndex, options), options };
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
export function deriveNonce(ctx: IExecuteFunctions, itemIndex: number, contentWithoutNonce: string): string {
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
export interface IntentMemo {
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
export function intentMemo(ctx: IExecuteFunctions, nonce: string, contentWithoutNonce: string): IntentMemo {
	const context = ctx.getContext('node');
	const key = `intent:${sha256Hex(`${nonce}\n${contentWithoutNonce}`)}`;
	const memo = (context[key] as IntentMemo | undefined) ?? {};
	context[key] = memo;
	return memo;
}

/** The expiry to sign: the explicit one, a remembered one with time left, or now + 15 minutes. */
export function expiryFor(memo: IntentMemo, explicit: number | undefined, now: number): number {
	if (explicit !== undefined) return explicit;
	if (memo.expiresAt !== undefined && memo.expiresAt - now >= MIN_REMAINING_MS) return memo.expiresAt;
	memo.expiresAt = now + DEFAULT_EXPIRY_MS;
	return memo.expiresAt;
}
