/**
 * From node parameters to the wire intent (execution-gateway.md §2.1): deposits, expiry, the
 * deterministic default nonce, and the per-execution memory that makes a retried item reuse its
 * first submission. Every problem becomes an error naming the field and the item.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { WireDeposit } from '../../shared/gateway/canonical';
import { parseJsonPreservingBigInts } from '../../shared/gateway/canonical';
import { sha256Hex } from '../../shared/gateway/keys';
import { fieldError, type FieldNaming } from '../../transport/nodeErrors';

/** Default lifetime of an intent: now + 15 minutes (well inside the 24 h horizon of §8). */
export const DEFAULT_EXPIRY_MS = 15 * 60 * 1000;
/** A remembered expiry is reused on retry only while this much time is left. */
const MIN_REMAINING_MS = 60 * 1000;

/** The parameter-facing name of a core field path (`deposits[0].asset.tokenId` -> `deposits[0].tokenId`). */
function displayField(field: string): string {
	return field.replace(/\.asset\.tokenId$/, '.tokenId').replace(/\.asset\.type$/, '.assetType');
}

/** The admission code the gateway would answer for the same mistake. */
function codeForField(field: string): string {
	if (field.endsWith('sparkTransferId')) return 'invalid_transfer_id';
	if (field.endsWith('tokenId')) return 'invalid_token_id';
	if (field.endsWith('amount')) return 'invalid_amount';
	if (field.endsWith('asset.type') || field.endsWith('assetType')) return 'invalid_asset';
	const byField: Record<string, string> = {
		evmTransaction: 'invalid_evm_transaction',
		action: 'invalid_action',
		recipient: 'invalid_recipient',
		expiresAt: 'invalid_expires_at',
		chainId: 'invalid_chain_id',
		nonce: 'invalid_nonce',
		deposits: 'invalid_deposits',
	};
	return byField[field] ?? 'invalid_input';
}

/** Reasons of the core that are the gateway's own admission codes for the same mistake. */
const ADMISSION_REASONS = new Set(['duplicate_transfer_id', 'chain_id_mismatch', 'below_min_deposit']);

/** The gateway's naming of core fields: parameter names and the admission code for each. */
export const GATEWAY_FIELDS: FieldNaming = {
	field: displayField,
	errorCode: (error) => (error.reason !== undefined && ADMISSION_REASONS.has(error.reason) ? error.reason : codeForField(error.field)),
};

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A parameter that must be text (ids, recipient, signed transaction, token id, nonce): trimmed;
 * a safe whole number becomes its digits; objects, arrays, booleans and unsafe numbers are refused
 * before anything is sent, instead of travelling as "[object Object]" or rounded digits.
 */
export function stringParam(ctx: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	const problem =
		typeof value === 'number'
			? `${value} is a JS number that may have lost digits; pass it as a string`
			: `must be text, got ${describe(value)}; pass it as a string`;
	throw fieldError(ctx.getNode(), itemIndex, field, problem, codeForField(field));
}

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
			: `must be a string of digits or a whole number, got ${describe(value)}; pass it as a string of digits`;
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
