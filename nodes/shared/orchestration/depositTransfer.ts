/**
 * The unsigned deposit transfer of a quote (orchestration-service.md §2.2: it "needs no approval and
 * only funds the deposit"), checked before any node hands it to a signer. The member's name is not
 * shown (public-notes), so every member shaped like an EVM transaction is checked. Pure.
 */
import type { RouteAsset } from './responseSchemas';

/** The transfer as the node hands it on: every number as decimal text, addresses and data in lower case. */
export interface DepositTransfer {
	chainId: string;
	to: string;
	value: string;
	data: string;
}

/** One member of an answer shaped like an EVM transaction, and where it sits (`depositTransaction`, `calldata.tx`). */
export interface FoundTransaction {
	path: string;
	tx: Record<string, unknown>;
}

export type TransferCheck = { verified: DepositTransfer } | { problem: string };

const MAX_DEPTH = 8;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The ERC-20 ABI codec, loaded on the first quote that carries a transaction. */
async function abiCodec() {
	return await import('./erc20Abi');
}
type AbiCodec = Awaited<ReturnType<typeof abiCodec>>;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value looks like an EVM transaction: a `to` with `data` or `value`. */
export function isTransactionShaped(value: unknown): value is Record<string, unknown> {
	return (
		isObject(value) && 'to' in value && ('data' in value || 'value' in value || 'input' in value)
	);
}

/** Every member of `body` shaped like an EVM transaction, however deep (to MAX_DEPTH) and whatever its name. */
export function transactionsIn(body: unknown, path = '', depth = 0): FoundTransaction[] {
	if (depth > MAX_DEPTH || typeof body !== 'object' || body === null) return [];
	if (depth > 0 && isTransactionShaped(body)) return [{ path, tx: body }];
	const entries: Array<[string, unknown]> = Array.isArray(body)
		? body.map((v, i) => [`${path}[${i}]`, v])
		: Object.entries(body).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
	return entries.flatMap(([p, v]) => transactionsIn(v, p, depth + 1));
}

/**
 * `body` without its transaction-shaped members (to MAX_DEPTH) and the paths removed: for answers
 * that do not say which source the transaction pays from, so it cannot be verified.
 */
export function withoutTransactions(body: Record<string, unknown>): {
	body: Record<string, unknown>;
	removed: string[];
} {
	const removed = transactionsIn(body).map((f) => f.path);
	if (removed.length === 0) return { body, removed };
	const strip = (value: unknown, depth: number): unknown => {
		if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
		if (Array.isArray(value))
			return value.filter((v) => !isTransactionShaped(v)).map((v) => strip(v, depth + 1));
		return Object.fromEntries(
			Object.entries(value)
				.filter(([, v]) => !isTransactionShaped(v))
				.map(([k, v]) => [k, strip(v, depth + 1)]),
		);
	};
	return { body: strip(body, 0) as Record<string, unknown>, removed };
}

/** A whole number given as decimal text, 0x hex or an exact JS number; undefined for anything else. */
function wholeNumber(value: unknown): bigint | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
	if (typeof value !== 'string' || value.length > 80) return undefined;
	if (/^[0-9]+$/.test(value)) return BigInt(value);
	if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
	return undefined;
}

/** The chain ID of a routes-listing entry: "8453" or CAIP "eip155:8453". */
function chainIdOf(asset: RouteAsset): bigint | undefined {
	const text =
		typeof asset.chainId === 'string' ? asset.chainId.replace(/^eip155:/, '') : undefined;
	return text === undefined ? undefined : wholeNumber(text);
}

function short(address: string): string {
	return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-4)}` : address;
}

/** The transfer a quote's deposit must be (§2.2): native value to the deposit address, or an ERC-20 transfer to it. */
function expectedTransfer(
	abi: AbiCodec,
	quote: Record<string, unknown>,
	source: RouteAsset,
): DepositTransfer | string {
	const { depositAddress, amountIn } = quote;
	if (typeof depositAddress !== 'string' || !ADDRESS.test(depositAddress))
		return 'the quote has no EVM deposit address to compare it with';
	const amount =
		typeof amountIn === 'string' && /^[0-9]{1,78}$/.test(amountIn) ? BigInt(amountIn) : undefined;
	if (amount === undefined) return 'the quote has no amountIn in smallest units to compare it with';
	const chainId = chainIdOf(source);
	if (chainId === undefined) return `the routes listing gives no chainId for ${source.id}`;
	const token = source.contractAddress ?? null;
	if (token === null || token === '')
		return {
			chainId: chainId.toString(),
			to: depositAddress.toLowerCase(),
			value: amount.toString(),
			data: '0x',
		};
	if (!ADDRESS.test(token))
		return `the routes listing gives ${source.id} a contractAddress that is not an EVM address`;
	const data = abi.transferData(depositAddress, amount);
	return { chainId: chainId.toString(), to: token.toLowerCase(), value: '0', data };
}

/** The differences between a transaction from the answer and the expected transfer, in words; empty when it is that transfer. */
function differences(
	abi: AbiCodec,
	tx: Record<string, unknown>,
	expected: DepositTransfer,
	source: RouteAsset,
	depositAddress: string,
): string[] {
	const found: string[] = [];
	const native = expected.data === '0x';
	const to = typeof tx.to === 'string' ? tx.to.toLowerCase() : undefined;
	if (to !== expected.to) {
		const what = native ? 'the deposit address' : `the ${source.asset} token contract`;
		found.push(
			`it goes to ${typeof tx.to === 'string' ? short(tx.to) : 'no address'}, not ${what} ${short(expected.to)}`,
		);
	}
	const value = wholeNumber(tx.value ?? '0');
	if (value === undefined) found.push('its value is not a whole number');
	else if (value.toString() !== expected.value) {
		found.push(
			native
				? `it sends ${value} instead of the quote's amountIn ${expected.value}`
				: `it also sends ${value} of the native coin`,
		);
	}
	const rawData = tx.data ?? tx.input ?? '0x';
	const data =
		typeof rawData === 'string' ? (rawData === '' ? '0x' : rawData.toLowerCase()) : undefined;
	if (data !== expected.data) {
		const given = data === undefined ? 'data that is not text' : abi.describeCall(data);
		found.push(
			native
				? `it carries ${given}; a native deposit carries no data`
				: `it is ${given}, not transfer(${short(depositAddress)}, amountIn)`,
		);
	}
	if ('chainId' in tx) {
		const chainId = wholeNumber(
			typeof tx.chainId === 'string' ? tx.chainId.replace(/^eip155:/, '') : tx.chainId,
		);
		if (chainId?.toString() !== expected.chainId)
			found.push(
				`its chainId is ${String(tx.chainId).slice(0, 20)}, not ${expected.chainId} (${source.chain})`,
			);
	}
	return found;
}

/**
 * Checks every transaction-shaped member of a quote's answer against the deposit transfer it must
 * be. `source` is the source asset's routes-listing entry; undefined when the listing lacks it.
 * Returns the verified transfer, none when the answer holds no transaction, or the first problem.
 */
export async function checkDepositTransfers(
	quote: Record<string, unknown>,
	source: RouteAsset | undefined,
): Promise<TransferCheck | undefined> {
	const found = transactionsIn(quote);
	if (found.length === 0) return undefined;
	const names = found.map((f) => `"${f.path}"`).join(', ');
	if (source === undefined)
		return {
			problem: `The quote's deposit transaction (${names}) cannot be verified: the routes listing does not list its source asset`,
		};
	const abi = await abiCodec();
	const expected = expectedTransfer(abi, quote, source);
	if (typeof expected === 'string')
		return {
			problem: `The quote's deposit transaction (${names}) cannot be verified: ${expected}`,
		};
	for (const { path, tx } of found) {
		const wrong = differences(abi, tx, expected, source, String(quote.depositAddress));
		if (wrong.length > 0)
			return {
				problem: `The quote's "${path}" is not the deposit transfer it must be: ${wrong.join('; ')}`,
			};
	}
	return { verified: expected };
}
