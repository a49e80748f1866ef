/**
 * The sandbox writes the revert lines of an EXPIRED intent (public-notes.md format) that the node
 * only reads, and their ABI-encoded output (Solidity's `Error(string)` and `Panic(uint256)`).
 */
import { bytesToHex, word } from './hex';
import { ERROR_STRING_SELECTOR, PANIC_SELECTOR } from './spec';

/** ABI encoding of `Error(string)` revert output (`0x` hex). */
export function encodeErrorString(message: string): string {
	const text = new TextEncoder().encode(message);
	const padded = new Uint8Array(Math.ceil(text.length / 32) * 32);
	padded.set(text);
	return ERROR_STRING_SELECTOR + word(32n) + word(BigInt(text.length)) + bytesToHex(padded);
}

/** ABI encoding of `Panic(uint256)` revert output (`0x` hex). */
export function encodePanic(code: number | bigint): string {
	return PANIC_SELECTOR + word(BigInt(code));
}

export type RevertLineParts = {
	prefix?: string;
	stage?: string;
	outcome?: string;
	intentIndex?: number;
	txHash: string;
	reason?: string;
	gasUsed: bigint | number | string;
	output: string;
};

/** Writes a revert line in the public-notes.md format (used by the sandbox). */
export function formatRevertLine(p: RevertLineParts): string {
	return (
		`${p.prefix ?? 'payload_flagged'}:stage=${p.stage ?? 'Execute'} outcome=${p.outcome ?? 'Reverted'}` +
		` intent_index=${p.intentIndex ?? 0} tx_hash=${p.txHash}` +
		` reason=${p.reason ?? 'reverted'}:gas_used=${p.gasUsed.toString()} output=${p.output}`
	);
}
