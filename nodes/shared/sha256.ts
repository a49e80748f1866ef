/**
 * SHA-256, the package's one way to hash: idempotency keys, payload hashes, key fingerprints and the
 * gateway's digests. node:crypto, not noble's sha2: the Orchestration node and the trigger may not
 * load noble (it stays in the signing entries, test/build/dist.test.ts), and one hash needs one door.
 */
import { createHash } from 'node:crypto';

/** SHA-256 of bytes, or of the UTF-8 encoding of a string. */
export function sha256Bytes(data: Uint8Array | string): Uint8Array {
	return new Uint8Array(createHash('sha256').update(data).digest());
}

/** SHA-256 as lowercase hex without prefix. */
export function sha256Hex(data: Uint8Array | string): string {
	return createHash('sha256').update(data).digest('hex');
}
