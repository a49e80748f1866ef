/**
 * The gateway signer (execution-gateway.md §2.4, §4, §5): secp256k1 keys, SHA-256 and ECDSA with
 * DER signatures, low S only. All arithmetic is @noble/curves (SHA-256: ../sha256.ts); this module fixes the encodings and
 * the policy. Errors name the field and never echo a key.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';

import { ProtocolError } from '../errors';
import { sha256Bytes } from '../sha256';
import { attempt, bytesToHex, strip0x, tryHexToBytes } from './hex';

const KEY_HEX_RE = /^[0-9a-fA-F]{64}$/;
const COMPRESSED_HEX_RE = /^0[23][0-9a-fA-F]{64}$/;

/**
 * Parses a 32-byte private key given as hex (optional 0x, surrounding whitespace ignored).
 * Errors describe the problem (length, characters, range) and never echo the key.
 */
export function parsePrivateKey(hex: string, field = 'privateKey'): Uint8Array {
	if (typeof hex !== 'string') {
		throw new ProtocolError(`${field} must be a hex string`, { field, reason: 'not_a_string' });
	}
	const body = strip0x(hex.trim());
	if (body.length === 0) {
		throw new ProtocolError(`${field} is empty`, { field, reason: 'empty' });
	}
	if (!/^[0-9a-fA-F]*$/.test(body)) {
		throw new ProtocolError(
			`${field} must contain only hex digits (0-9, a-f), optionally prefixed with 0x`,
			{ field, reason: 'invalid_hex' },
		);
	}
	if (!KEY_HEX_RE.test(body)) {
		throw new ProtocolError(
			`${field} must be 64 hex characters (32 bytes), got ${body.length} characters`,
			{ field, reason: 'wrong_length' },
		);
	}
	const bytes = tryHexToBytes(body) as Uint8Array;
	if (!secp256k1.utils.isValidSecretKey(bytes)) {
		throw new ProtocolError(
			`${field} is not a valid secp256k1 private key (must be between 1 and the curve order minus 1)`,
			{ field, reason: 'out_of_range' },
		);
	}
	return bytes;
}

/** Accepts parsed bytes or hex; always validates. */
export function toPrivateKeyBytes(priv: Uint8Array | string): Uint8Array {
	if (typeof priv === 'string') return parsePrivateKey(priv);
	if (!(priv instanceof Uint8Array) || !secp256k1.utils.isValidSecretKey(priv)) {
		throw new ProtocolError('privateKey is not a valid 32-byte secp256k1 private key', {
			field: 'privateKey',
			reason: 'out_of_range',
		});
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

/** Lowercase compressed public key, or a ProtocolError naming `field`. */
export function normalizeCompressedPublicKey(hex: unknown, field = 'publicKey'): string {
	if (!isCompressedPublicKey(hex)) {
		throw new ProtocolError(
			`${field} must be a 33-byte compressed secp256k1 public key: 66 hex characters starting with 02 or 03, without 0x`,
			{ field, reason: 'invalid_public_key' },
		);
	}
	return hex.toLowerCase();
}

export { sha256Bytes, sha256Hex } from '../sha256';

function assertDigest(digest: Uint8Array): void {
	if (!(digest instanceof Uint8Array) || digest.length !== 32) {
		throw new ProtocolError('digest must be 32 bytes', { field: 'digest', reason: 'wrong_length' });
	}
}

/** Signs a 32-byte digest as-is (no second hash); DER hex, always low S (BIP-62 / EIP-2 policy). */
export function signDigestDer(digest: Uint8Array, priv: Uint8Array | string): string {
	assertDigest(digest);
	const sig = secp256k1.sign(digest, toPrivateKeyBytes(priv), {
		prehash: false,
		lowS: true,
		format: 'der',
	});
	return bytesToHex(sig);
}

/**
 * Verifies a DER signature over a 32-byte digest. False (never an exception) for malformed or
 * non-canonical DER, high S, a bad public key or a wrong signature.
 */
export function verifyDerSignature(
	sigHex: string,
	digest: Uint8Array,
	publicKeyHex: string,
): boolean {
	try {
		if (!(digest instanceof Uint8Array) || digest.length !== 32) return false;
		if (!isCompressedPublicKey(strip0x(String(publicKeyHex)))) return false;
		const der = tryHexToBytes(sigHex);
		if (!der || der.length < 8 || der.length > 72) return false;
		const sig = secp256k1.Signature.fromBytes(der, 'der');
		// Non-canonical DER (padding, long-form lengths) must not re-encode to the same bytes.
		if (bytesToHex(sig.toBytes('der')) !== bytesToHex(der)) return false;
		if (sig.hasHighS()) return false;
		const pub = tryHexToBytes(strip0x(publicKeyHex)) as Uint8Array;
		return secp256k1.verify(der, digest, pub, { prehash: false, lowS: true, format: 'der' });
	} catch {
		return false;
	}
}

/** The longest challenge signed: an authentication challenge is a short text. */
export const MAX_CHALLENGE_LENGTH = 1024;

/** Printable ASCII (0x20-0x7E), tab, CR and LF: the only characters a challenge may have. */
const NOT_CHALLENGE_TEXT_RE = /[^\x20-\x7E\t\r\n]/u;

/**
 * Why a challenge must not be signed, or undefined. The key signs SHA-256 of what it is given, the
 * scheme of intents (§2.4) and of other systems' messages, so only what an authentication challenge
 * can be is signed (no signing oracle):
 * - text: printable ASCII, tab, CR, LF; no other character, so no binary message, no hash or
 *   transaction of another system (a 32-byte digest that is valid UTF-8 is refused unless all 32
 *   bytes happen to be among these 98: about 1 in 2.2e13, against 1 in 1e8 for valid UTF-8);
 * - 1 to 1,024 characters;
 * - not JSON that parses as an object or array (a canonical intent is a JSON object). JSON scalars
 *   (a string, a number, true, false, null) are signed: they cannot be an intent, and a plain nonce
 *   such as `12345` or `null` would otherwise be refused. Broken JSON is text, and signed.
 * §5 does not show the challenge's format; the reasons name the rule and never echo the text.
 */
export function unsafeChallengeReason(challengeString: unknown): string | undefined {
	if (typeof challengeString !== 'string') return 'the challenge is not text';
	if (challengeString.length === 0) return 'the challenge is empty';
	if (challengeString.length > MAX_CHALLENGE_LENGTH) {
		return `the challenge has ${challengeString.length} characters, more than the ${MAX_CHALLENGE_LENGTH} an authentication challenge may have`;
	}
	const bad = NOT_CHALLENGE_TEXT_RE.exec(challengeString);
	if (bad !== null) {
		const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
		return `the challenge has a character outside printable ASCII, tab, CR and LF (U+${code} at position ${bad.index + 1}): it could be binary data, such as a hash or a transaction of another system`;
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(challengeString);
	} catch {
		return undefined;
	}
	if (parsed === null || typeof parsed !== 'object') return undefined;
	const keys = Array.isArray(parsed) ? [] : Object.keys(parsed);
	const intentLike = ['chainId', 'transfers', 'action', 'nonce', 'expiresAt'].some((k) =>
		keys.includes(k),
	);
	return intentLike
		? 'the challenge has the shape of a canonical intent: signing it would authorize moving funds'
		: `the challenge is a JSON ${Array.isArray(parsed) ? 'array' : 'object'}, which could be mistaken for a signed intent`;
}

/** The challenge signature of §5: DER over SHA-256 of the UTF-8 `challengeString`; refuses what cannot be a challenge. */
export function signChallenge(challengeString: string, priv: Uint8Array | string): string {
	const unsafe = unsafeChallengeReason(challengeString);
	if (unsafe !== undefined)
		throw new ProtocolError(`Refusing to sign: ${unsafe}`, {
			field: 'challengeString',
			reason: 'unsafe_challenge',
		});
	return signDigestDer(sha256Bytes(challengeString), priv);
}

/** Checks a §5 challenge signature; never throws. */
export function verifyChallengeSignature(
	sigHex: string,
	challengeString: string,
	publicKeyHex: string,
): boolean {
	if (typeof challengeString !== 'string') return false;
	return verifyDerSignature(sigHex, sha256Bytes(challengeString), publicKeyHex);
}

/** DER hex to 64-byte compact `r || s` hex; throws a ProtocolError on malformed DER. */
export function derToCompact(derHex: string): string {
	const der = tryHexToBytes(derHex);
	const parsed = der
		? attempt(() => secp256k1.Signature.fromBytes(der, 'der').toBytes('compact'))
		: null;
	if (!parsed?.ok) {
		throw new ProtocolError('signature is not a valid DER-encoded ECDSA signature', {
			field: 'signature',
			reason: 'invalid_der',
		});
	}
	return bytesToHex(parsed.value);
}

/** 64-byte compact `r || s` hex to DER hex; throws a ProtocolError on malformed input. */
export function compactToDer(compactHex: string): string {
	const compact = tryHexToBytes(compactHex);
	const parsed =
		compact?.length === 64
			? attempt(() => secp256k1.Signature.fromBytes(compact, 'compact').toBytes('der'))
			: null;
	if (!parsed?.ok) {
		throw new ProtocolError(
			'signature must be 64 bytes (128 hex characters) of r || s with 0 < r, s < n',
			{ field: 'signature', reason: 'invalid_compact' },
		);
	}
	return bytesToHex(parsed.value);
}
