/** secp256k1 key handling for the gateway signer (execution-gateway.md §4, §5). */
import { secp256k1 } from '@noble/curves/secp256k1.js';

import { GatewayInputError } from './errors';
import { bytesToHex, strip0x, tryHexToBytes } from './hex';

export { GatewayInputError } from './errors';

const KEY_HEX_RE = /^[0-9a-fA-F]{64}$/;
const COMPRESSED_HEX_RE = /^0[23][0-9a-fA-F]{64}$/;

/**
 * Parses a 32-byte private key given as hex (optional 0x, surrounding whitespace ignored).
 * Errors describe the problem (length, characters, range) and never echo the key.
 */
export function parsePrivateKey(hex: string, field = 'privateKey'): Uint8Array {
	if (typeof hex !== 'string') {
		throw new GatewayInputError(field, 'not_a_string', `${field} must be a hex string`);
	}
	const body = strip0x(hex.trim());
	if (body.length === 0) {
		throw new GatewayInputError(field, 'empty', `${field} is empty`);
	}
	if (!/^[0-9a-fA-F]*$/.test(body)) {
		throw new GatewayInputError(
			field,
			'invalid_hex',
			`${field} must contain only hex digits (0-9, a-f), optionally prefixed with 0x`,
		);
	}
	if (!KEY_HEX_RE.test(body)) {
		throw new GatewayInputError(
			field,
			'wrong_length',
			`${field} must be 64 hex characters (32 bytes), got ${body.length} characters`,
		);
	}
	const bytes = tryHexToBytes(body) as Uint8Array;
	if (!secp256k1.utils.isValidSecretKey(bytes)) {
		throw new GatewayInputError(
			field,
			'out_of_range',
			`${field} is not a valid secp256k1 private key (must be between 1 and the curve order minus 1)`,
		);
	}
	return bytes;
}

/** Accepts parsed bytes or hex; always validates. */
export function toPrivateKeyBytes(priv: Uint8Array | string): Uint8Array {
	if (typeof priv === 'string') return parsePrivateKey(priv);
	if (!(priv instanceof Uint8Array) || !secp256k1.utils.isValidSecretKey(priv)) {
		throw new GatewayInputError(
			'privateKey',
			'out_of_range',
			'privateKey is not a valid 32-byte secp256k1 private key',
		);
	}
	return priv;
}

/** 33-byte compressed public key, lowercase hex without 0x (the form §4 sends as `publicKey`). */
export function publicKeyFromPrivateKey(priv: Uint8Array | string): string {
	return bytesToHex(secp256k1.getPublicKey(toPrivateKeyBytes(priv), true));
}

/** True for 33-byte compressed hex (no 0x) that is a point on the curve. */
export function isCompressedPublicKey(hex: unknown): hex is string {
	if (typeof hex !== 'string' || !COMPRESSED_HEX_RE.test(hex)) return false;
	try {
		return secp256k1.utils.isValidPublicKey(tryHexToBytes(hex) as Uint8Array, true);
	} catch {
		return false;
	}
}

/** Lowercase compressed public key, or a GatewayInputError naming `field`. */
export function normalizeCompressedPublicKey(hex: unknown, field = 'publicKey'): string {
	if (!isCompressedPublicKey(hex)) {
		throw new GatewayInputError(
			field,
			'invalid_public_key',
			`${field} must be a 33-byte compressed secp256k1 public key: 66 hex characters starting with 02 or 03, without 0x`,
		);
	}
	return hex.toLowerCase();
}
