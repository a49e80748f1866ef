/**
 * From node parameters to the wire intent (execution-gateway.md §2.1): deposits, expiry, the
 * deterministic default nonce, and the per-execution memory that makes a retried item reuse its
 * first submission. Every problem becomes an error naming the field and the item.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { WireDeposit } from '../../shared/gateway/canonical';
import { parseJsonPreservingBigInts } from '../../shared/gateway/json';
import { GatewayInputError } from '../../shared/gateway/keys';
import { sha256Hex } from '../../shared/gateway/signing';
import { fieldError } from '../../transport/items';

/** Default lifetime of an intent: now + 15 minutes (well inside the 24 h horizon of §8). */
export const DEFAULT_EXPIRY_MS = 15 * 60 * 1000;
/** A remembered expiry is reused on retry only while this much time is left. */
const MIN_REMAINING_MS = 60 * 1000;

type NodeErrorWithCode = NodeOperationError & { errorCode?: string };

/** A pre-send error: names field and item, says nothing was sent, carries the gateway's code. */
export function preSendError(ctx: IExecuteFunctions, itemIndex: number, field: string, problem: string, code: string): NodeOperationError {
	const error: NodeErrorWithCode = fieldError(ctx, itemIndex, field, problem);
	error.errorCode = code;
	return error;
}

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

/** Turns a protocol-core input error into a pre-send NodeOperationError. */
export function inputError(ctx: IExecuteFunctions, itemIndex: number, error: unknown): NodeOperationError {
	if (error instanceof GatewayInputError) {
		return preSendError(ctx, itemIndex, displayField(error.field), error.message, codeForField(error.field));
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}

/**
 * An amount as typed: digits stay a string, a safe integer becomes its digits; any other number is
 * passed on as is so parseU64 rejects it with its reason (fraction, negative, beyond 2^53).
 */
function amountOf(value: unknown): string | bigint {
	if (typeof value === 'bigint') return value;
	if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : (value as unknown as string);
	return text(value);
}

function depositOf(entry: IDataObject): WireDeposit {
	const asset = entry.asset as IDataObject | undefined;
	const assetType = text(entry.assetType ?? asset?.type).toLowerCase();
	const tokenId = text(entry.tokenId ?? asset?.tokenId);
	return {
		sparkTransferId: text(entry.sparkTransferId),
		asset: (assetType === 'token' ? { type: 'token', tokenId } : { type: assetType === '' ? 'btc' : assetType }) as WireDeposit['asset'],
		amount: amountOf(entry.amount),
	};
}

/**
 * Deposits from the fixed collection, or from the "Deposits (JSON)" option when that holds a
 * non-empty array (u64 amounts beyond 2^53 are parsed exactly, never as a JS number).
 */
export function readDeposits(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): WireDeposit[] {
	const fixed = ctx.getNodeParameter('deposits.deposit', itemIndex, []) as IDataObject[];
	let list: unknown = options.depositsJson;
	if (list === undefined || list === null || (typeof list === 'string' && list.trim() === '')) return fixed.map(depositOf);
	if (typeof list === 'string') {
		try {
			list = parseJsonPreservingBigInts(list);
		} catch {
			throw preSendError(ctx, itemIndex, 'depositsJson', 'is not valid JSON', 'invalid_deposits');
		}
	}
	if (!Array.isArray(list) || list.some((e) => typeof e !== 'object' || e === null || Array.isArray(e))) {
		throw preSendError(
			ctx,
			itemIndex,
			'depositsJson',
			'must be a JSON array of {sparkTransferId, assetType: "btc" | "token", tokenId?, amount} objects',
			'invalid_deposits',
		);
	}
	if (list.length === 0) return fixed.map(depositOf);
	if (fixed.length > 0) {
		throw preSendError(ctx, itemIndex, 'depositsJson', 'set either the Deposits list or Deposits (JSON), not both', 'invalid_deposits');
	}
	return (list as IDataObject[]).map(depositOf);
}

/** "Expires At": unix milliseconds (number or digits) or an ISO 8601 timestamp with a zone. */
export function parseExpiresAt(ctx: IExecuteFunctions, itemIndex: number, value: unknown): number {
	let ms: number;
	if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && /^\d+$/.test(value.trim())) ms = Number(value.trim());
	else if (typeof value === 'string') ms = Date.parse(value.trim());
	else ms = Number.NaN;
	if (!Number.isSafeInteger(ms) || ms < 0) {
		throw preSendError(ctx, itemIndex, 'expiresAt', 'must be unix milliseconds or an ISO 8601 timestamp', 'invalid_expires_at');
	}
	if (ms > 0 && ms < 1e12) {
		throw preSendError(
			ctx,
			itemIndex,
			'expiresAt',
			`${ms} looks like unix seconds; the gateway expects unix milliseconds (§2.1)`,
			'invalid_expires_at',
		);
	}
	return ms;
}

/**
 * Default nonce: a hash of workflow id, execution id, node name, item index and the intent's
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
	return `n8n-${sha256Hex(seed).slice(0, 32)}`;
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
