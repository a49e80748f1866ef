/**
 * What the public gateway client does to inputs before signing (issue 10, public-notes.md): the
 * recipient in lower case, the signed transaction with its `0x`, transfer ids as plain lower-case
 * hex (dashed UUIDs and `0x` accepted). The same normalized values go into the canonical message
 * (§2.4) and the request (§2.1), so both always agree.
 */
import type { WireDeposit, WireIntent } from './canonical';
import { validateRecipient } from './validation';

const DASHED_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A Spark transfer id as plain lower-case hex: dashes of a UUID and a `0x` prefix removed; anything else as given. */
export function normalizeTransferId(id: string): string {
	if (DASHED_UUID.test(id)) return id.replace(/-/g, '').toLowerCase();
	const plain = /^0x/i.test(id) ? id.slice(2) : id;
	return /^[0-9a-fA-F]+$/.test(plain) ? plain.toLowerCase() : id;
}

/** §2.1 recipient: checked as given (a mixed-case address must carry a valid EIP-55 checksum), then lower case. */
export function normalizeRecipient(address: string): string {
	return validateRecipient(address).toLowerCase();
}

/** The signed transaction's hex with its `0x` prefix (added when missing, `0X` lowered). */
export function normalizeEvmTransaction(hex: string): string {
	return /^0x/i.test(hex) ? `0x${hex.slice(2)}` : `0x${hex}`;
}

function normalizeDeposit(d: WireDeposit): WireDeposit {
	return typeof d.sparkTransferId === 'string' ? { ...d, sparkTransferId: normalizeTransferId(d.sparkTransferId) } : d;
}

/** The wire intent (or its deposits and action alone) as the public client would sign and send it. */
export function normalizeWireIntent<T extends Pick<WireIntent, 'deposits' | 'recipient' | 'evmTransaction'>>(intent: T): T {
	const out: T = { ...intent, deposits: Array.isArray(intent.deposits) ? intent.deposits.map(normalizeDeposit) : intent.deposits };
	if (typeof intent.recipient === 'string') out.recipient = normalizeRecipient(intent.recipient);
	if (typeof intent.evmTransaction === 'string') out.evmTransaction = normalizeEvmTransaction(intent.evmTransaction);
	return out;
}
