/**
 * The ERC-20 calls a deposit transfer may be, through micro-eth-signer's ABI codec. Loaded lazily
 * by depositTransfer.ts: it brings noble's keccak, which the Orchestration node needs nowhere else.
 */
import { createContract, ERC20 } from 'micro-eth-signer/abi.js';
import { bytesToPrefixedHex, tryHexToBytes } from '../gateway/hex';

const erc20 = createContract(ERC20);
/** The (address, uint256) arguments of transfer and approve, decoded as a tuple. */
const addressAndAmount = createContract([
	{
		type: 'function',
		name: 'arguments',
		inputs: [],
		outputs: [
			{ name: 'account', type: 'address' },
			{ name: 'amount', type: 'uint256' },
		],
	},
] as const).arguments;
const SELECTORS: Record<string, string> = {
	'0xa9059cbb': 'transfer',
	'0x095ea7b3': 'approve',
	'0x23b872dd': 'transferFrom',
};

/** `transfer(to, amount)` as calldata, 0x-prefixed lower-case hex. */
export function transferData(to: string, amount: bigint): string {
	return bytesToPrefixedHex(erc20.transfer.encodeInput({ to, value: amount }));
}

function short(address: string): string {
	return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-4)}` : address;
}

/** What a call's data does, in words: `approve(0x1234…abcd, 1000), an approval…`, or its bare selector. */
export function describeCall(data: string): string {
	const bytes = tryHexToBytes(data);
	if (bytes === null) return 'data that is not hex';
	if (bytes.length === 0) return 'no data';
	const selector = bytesToPrefixedHex(bytes.slice(0, 4));
	const name = SELECTORS[selector];
	if (name === undefined) return `a call with selector ${selector} (${bytes.length} bytes)`;
	if (name === 'transferFrom' || bytes.length !== 68)
		return `a ${name} call (${bytes.length} bytes)`;
	let args: { account: string; amount: bigint };
	try {
		args = addressAndAmount.decodeOutput(bytes.slice(4));
	} catch {
		return `a ${name} call with malformed arguments`;
	}
	const call = `${name}(${short(args.account)}, ${args.amount})`;
	return name === 'approve' ? `${call}, an approval, which a deposit never needs` : call;
}
