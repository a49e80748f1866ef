/** Independent crypto for the gateway tests: node:crypto (OpenSSL), never the code under test. */
import { createECDH, createHash, createPrivateKey, createPublicKey, ECDH, sign, verify, type KeyObject } from 'node:crypto';

export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Compressed 33-byte public key of a private key, computed by OpenSSL. */
export function nodeCompressedPublicKey(privHex: string): string {
	const ecdh = createECDH('secp256k1');
	ecdh.setPrivateKey(Buffer.from(privHex, 'hex'));
	return ecdh.getPublicKey('hex', 'compressed');
}

function jwkCoordinates(compressedHex: string): { x: string; y: string } {
	const uncompressed = Buffer.from(
		ECDH.convertKey(compressedHex, 'secp256k1', 'hex', 'hex', 'uncompressed') as string,
		'hex',
	);
	return {
		x: uncompressed.subarray(1, 33).toString('base64url'),
		y: uncompressed.subarray(33, 65).toString('base64url'),
	};
}

/** A node:crypto KeyObject for a compressed secp256k1 point (decompressed by OpenSSL). */
export function nodePublicKeyObject(compressedHex: string): KeyObject {
	return createPublicKey({ key: { kty: 'EC', crv: 'secp256k1', ...jwkCoordinates(compressedHex) }, format: 'jwk' });
}

/** OpenSSL ECDSA verification of a DER signature over SHA-256(message). */
export function nodeVerifySha256Der(message: Buffer | string, derHex: string, compressedHex: string): boolean {
	return verify(
		'sha256',
		Buffer.from(message),
		{ key: nodePublicKeyObject(compressedHex), dsaEncoding: 'der' },
		Buffer.from(derHex, 'hex'),
	);
}

/** OpenSSL ECDSA signature (DER hex, may be high S) over SHA-256(message). */
export function nodeSignSha256Der(message: Buffer | string, privHex: string): string {
	const key = createPrivateKey({
		key: {
			kty: 'EC',
			crv: 'secp256k1',
			d: Buffer.from(privHex, 'hex').toString('base64url'),
			...jwkCoordinates(nodeCompressedPublicKey(privHex)),
		},
		format: 'jwk',
	});
	return sign('sha256', Buffer.from(message), { key, dsaEncoding: 'der' }).toString('hex');
}

export function nodeSha256Hex(data: Buffer | string): string {
	return createHash('sha256').update(data).digest('hex');
}
