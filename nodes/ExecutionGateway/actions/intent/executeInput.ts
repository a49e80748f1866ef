/**
 * Intent > Execute, step 1: the item read once (deposits from the list or JSON, the action, expiry,
 * nonce, chain ID). u64 amounts never pass through a JS number; every mistake names its field.
 */
import type { IDataObject } from 'n8n-workflow';
import { parseJsonPreservingBigInts } from '../../../shared/gateway/canonical';
import { type WireDeposit } from '../../../shared/gateway/intentFields';
import type { IntentInput } from '../../../shared/gateway/intentPlan';
import { describeValue } from '../../../shared/errors';
import type { ItemReader } from '../../../n8n/items';

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
