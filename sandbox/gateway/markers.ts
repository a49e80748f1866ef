import { hexToBytes } from './hex';
import type { RevertPlan } from './state';

/**
 * Calldata markers that make an execute intent's EVM transaction revert at inclusion in the
 * sandbox (the real chain runs the contract; the emulator has none):
 * - `0xdeadbeef` + optional UTF-8 bytes: reverts with Error(string), the bytes as the message.
 * - `0xdeadfa11` + optional one byte: reverts with Panic(uint256), that byte as the code (default 0x01).
 */
export const REVERT_ERROR_MARKER = '0xdeadbeef';
export const REVERT_PANIC_MARKER = '0xdeadfa11';
export const DEFAULT_REVERT_MESSAGE = 'sandbox: forced revert';

export function revertPlanFromCalldata(data: string): RevertPlan | undefined {
	const lower = data.toLowerCase();
	if (lower.startsWith(REVERT_ERROR_MARKER)) {
		const rest = hexToBytes(`0x${lower.slice(REVERT_ERROR_MARKER.length)}`) ?? new Uint8Array(0);
		const message = rest.length ? new TextDecoder('utf-8', { fatal: false }).decode(rest) : DEFAULT_REVERT_MESSAGE;
		return { kind: 'error', message };
	}
	if (lower.startsWith(REVERT_PANIC_MARKER)) {
		const rest = lower.slice(REVERT_PANIC_MARKER.length);
		return { kind: 'panic', code: rest.length >= 2 ? BigInt(`0x${rest.slice(0, 2)}`) : 1n };
	}
	return undefined;
}

/** Calldata for tests and benchmarks: an Error(string) revert with `message`. */
export function errorRevertCalldata(message = ''): string {
	return REVERT_ERROR_MARKER + Buffer.from(message, 'utf8').toString('hex');
}

/** Calldata for tests and benchmarks: a Panic(uint256) revert with a one-byte `code`. */
export function panicRevertCalldata(code = 1): string {
	return REVERT_PANIC_MARKER + (code & 0xff).toString(16).padStart(2, '0');
}
