/**
 * Intent > Execute's item as the core reads it (execution-gateway.md §2.1): deposits from the list
 * or from JSON text, the one action, expiry, nonce and chain ID. u64 amounts never pass through a JS
 * number; every mistake is a ProtocolError naming its field, with the gateway's code as its reason.
 */
import { describeValue, inField, ProtocolError } from '../errors';
import { textInput } from '../inputs';
import { parseJsonPreservingBigInts } from './canonical';
import type { WireDeposit } from './intentFields';
import type { IntentAction, IntentInput } from './intentPlan';

/** The item as n8n hands it over: parameters after expressions, nothing checked yet. */
export interface IntentItem {
	/** Entries of the "Deposits" list. */
	depositList: unknown[];
	/** The "Deposits (JSON)" option: JSON text or an array. */
	depositsJson?: unknown;
	/** 'deposit' (a recipient) or 'execute' (a signed EVM transaction). */
	action: unknown;
	/** The parameter of the chosen action: the recipient or the EVM transaction. */
	actionValue: unknown;
	expiresAt?: unknown;
	nonce?: unknown;
	chainId?: unknown;
}

function refuse(field: string, problem: string, reason: string): ProtocolError {
	return new ProtocolError(problem, { field, reason });
}

function text(field: string, value: unknown): string {
	return inField(field, () => textInput(value));
}

/**
 * §2.1 u64 amount, exact: a string of digits, a bigint parsed from JSON text, or a JS number that
 * is a safe whole number. Anything else is refused before sending (a larger number has already
 * lost digits in JavaScript).
 */
function amountOf(field: string, value: unknown): string | bigint {
	if (typeof value === 'bigint') return value;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	const problem =
		typeof value === 'number'
			? `${value} is not a whole number of base units that JavaScript holds exactly (at most 2^53 - 1); pass it as a string of digits, for example "18446744073709551615"`
			: `must be a string of digits or a whole number, got ${describeValue(value)}; pass it as a string of digits`;
	throw refuse(field, problem, 'invalid_amount');
}

function depositOf(entry: Record<string, unknown>, k: number): WireDeposit {
	const at = `deposits[${k}]`;
	const asset = entry.asset as Record<string, unknown> | undefined;
	const assetType = text(`${at}.assetType`, entry.assetType ?? asset?.type).toLowerCase();
	const tokenId = text(`${at}.tokenId`, entry.tokenId ?? asset?.tokenId);
	return {
		sparkTransferId: text(`${at}.sparkTransferId`, entry.sparkTransferId),
		asset: (assetType === 'token'
			? { type: 'token', tokenId }
			: { type: assetType === '' ? 'btc' : assetType }) as WireDeposit['asset'],
		amount: amountOf(`${at}.amount`, entry.amount),
	};
}

/**
 * Deposits from the list, or from "Deposits (JSON)" when that holds a non-empty array (u64 amounts
 * beyond 2^53 are parsed exactly, never as a JS number).
 */
function depositsOf(fixed: unknown[], json: unknown): WireDeposit[] {
	let list: unknown = json;
	const toDeposits = (entries: unknown[]) =>
		entries.map((e, k) => depositOf(e as Record<string, unknown>, k));
	if (list === undefined || list === null || (typeof list === 'string' && list.trim() === ''))
		return toDeposits(fixed);
	if (typeof list === 'string') {
		try {
			list = parseJsonPreservingBigInts(list);
		} catch {
			throw refuse('depositsJson', 'is not valid JSON', 'invalid_deposits');
		}
	}
	if (
		!Array.isArray(list) ||
		list.some((e) => typeof e !== 'object' || e === null || Array.isArray(e))
	) {
		throw refuse(
			'depositsJson',
			'must be a JSON array of {sparkTransferId, assetType: "btc" | "token", tokenId?, amount} objects',
			'invalid_deposits',
		);
	}
	if (list.length === 0) return toDeposits(fixed);
	if (fixed.length > 0)
		throw refuse(
			'depositsJson',
			'set either the Deposits list or Deposits (JSON), not both',
			'invalid_deposits',
		);
	return toDeposits(list);
}

/** "Expires At": unix milliseconds (number or digits) or an ISO 8601 timestamp with a zone. */
function expiresAtOf(value: unknown): number {
	let ms: number;
	if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && /^\d+$/.test(value.trim())) ms = Number(value.trim());
	else if (typeof value === 'string') ms = Date.parse(value.trim());
	else ms = Number.NaN;
	if (!Number.isSafeInteger(ms) || ms < 0)
		throw refuse(
			'expiresAt',
			'must be unix milliseconds or an ISO 8601 timestamp',
			'invalid_expires_at',
		);
	if (ms > 0 && ms < 1e12) {
		throw refuse(
			'expiresAt',
			`${ms} looks like unix seconds; the gateway expects unix milliseconds (§2.1)`,
			'invalid_expires_at',
		);
	}
	return ms;
}

/** §2.1: exactly one of recipient and evmTransaction. */
function actionOf(action: unknown, actionValue: unknown): IntentAction {
	const field = actionFieldOf(action);
	const value = text(field, actionValue);
	if (value === '') {
		const problem =
			field === 'recipient'
				? 'is empty: a deposit-only intent needs exactly one action, a recipient address'
				: 'is empty: a deposit-and-execute intent needs exactly one action, a signed EIP-1559 transaction';
		throw refuse(field, problem, 'invalid_action');
	}
	return field === 'recipient' ? { recipient: value } : { evmTransaction: value };
}

/** "Chain ID": 0 or empty means "from network info"; digits from an expression count as a number. */
function chainIdOf(v: unknown): number | undefined {
	if (v === undefined || v === null || v === '' || v === 0) return undefined;
	return typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : (v as number);
}

/** The action field an item's "Action" names: the one parameter to read for it. */
export function actionFieldOf(action: unknown): 'recipient' | 'evmTransaction' {
	return action === 'execute' ? 'evmTransaction' : 'recipient';
}

/** The item's intent, read once, in the order the user sees the fields: deposits, action, then the options. */
export function intentInputOf(item: IntentItem): IntentInput {
	const hasExpiresAt = item.expiresAt !== undefined && item.expiresAt !== '';
	return {
		deposits: depositsOf(item.depositList, item.depositsJson),
		action: actionOf(item.action, item.actionValue),
		expiresAt: hasExpiresAt ? expiresAtOf(item.expiresAt) : undefined,
		nonce: text('nonce', item.nonce) || undefined,
		chainId: chainIdOf(item.chainId),
	};
}
