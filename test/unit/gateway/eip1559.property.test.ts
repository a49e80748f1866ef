/**
 * Properties of the micro-eth-signer adapter: what signEip1559 signs decodes to the same fields and
 * signer, and any input, however mangled, is either accepted with hash = keccak256(input) (strict
 * decoding: one transaction, one encoding) or rejected with an Eip1559Error, never another error.
 */
import fc from 'fast-check';

import { addressFromPublicKey, decodeSignedEip1559, Eip1559Error, keccak256Hex, signEip1559 } from '../../../nodes/shared/gateway';
import { nodeCompressedPublicKey, SECP256K1_N } from './helpers';

const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 2n });
const u256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length }).map(hexOf);
const privateKey = fc.bigInt({ min: 1n, max: SECP256K1_N - 1n }).map((k) => k.toString(16).padStart(64, '0'));

const unsignedTx = fc
	.record({
		chainId: u256,
		nonce: u64,
		tip: fc.bigInt({ min: 0n, max: 2n ** 64n }),
		extra: fc.bigInt({ min: 0n, max: 2n ** 64n }),
		gasLimit: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
		to: fc.option(bytes(20), { nil: null }),
		value: u256,
		data: fc.uint8Array({ maxLength: 200 }).map(hexOf),
		accessList: fc.array(fc.record({ address: bytes(20), storageKeys: fc.array(bytes(32), { maxLength: 3 }) }), { maxLength: 3 }),
	})
	.map(({ tip, extra, ...tx }) => ({ ...tx, maxPriorityFeePerGas: tip, maxFeePerGas: tip + extra }));

function decodeOrReason(raw: string): ReturnType<typeof decodeSignedEip1559> | string {
	try {
		return decodeSignedEip1559(raw);
	} catch (e) {
		if (!(e instanceof Eip1559Error)) throw e;
		return e.reason;
	}
}

describe('signEip1559 / decodeSignedEip1559 round trip', () => {
	it('decodes every signed field and recovers the OpenSSL-derived address of the key', () => {
		fc.assert(
			fc.property(unsignedTx, privateKey, (tx, key) => {
				const raw = signEip1559(tx, key);
				const decoded = decodeSignedEip1559(raw);
				expect(decoded).toMatchObject({ ...tx, type: 2, raw });
				expect(decoded.hash).toBe(keccak256Hex(Buffer.from(raw.slice(2), 'hex')));
				expect(decoded.from).toBe(addressFromPublicKey(nodeCompressedPublicKey(key)));
				expect(BigInt(decoded.s) <= SECP256K1_N >> 1n).toBe(true);
			}),
			{ numRuns: 60 },
		);
	});
});

describe('decodeSignedEip1559 on mangled input', () => {
	const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
	const base = signEip1559(
		{ chainId: 1, nonce: 7, maxPriorityFeePerGas: 1, maxFeePerGas: 2, gasLimit: 21000, to: `0x${'ab'.repeat(20)}`, value: 5n, data: '0xdeadbeef', accessList: [{ address: `0x${'11'.repeat(20)}`, storageKeys: [`0x${'22'.repeat(32)}`] }] },
		KEY,
	);
	const baseBytes = Buffer.from(base.slice(2), 'hex');

	function expectAcceptedExactlyOrReason(raw: Buffer): void {
		const out = decodeOrReason(hexOf(raw));
		if (typeof out === 'string') return;
		expect(out.hash).toBe(keccak256Hex(raw));
		expect(out.raw).toBe(hexOf(raw));
	}

	it('one changed byte is accepted only as an exact encoding, else an Eip1559Error', () => {
		fc.assert(
			fc.property(fc.nat({ max: baseBytes.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, byte) => {
				const raw = Buffer.from(baseBytes);
				raw[at] = byte;
				expectAcceptedExactlyOrReason(raw);
			}),
			{ numRuns: 400 },
		);
	});

	it('truncated, extended or random bytes after the type byte give an Eip1559Error', () => {
		fc.assert(
			fc.property(fc.nat({ max: baseBytes.length }), fc.uint8Array({ maxLength: 40 }), (cut, tail) => {
				expectAcceptedExactlyOrReason(Buffer.concat([baseBytes.subarray(0, cut), tail]));
				expectAcceptedExactlyOrReason(Buffer.concat([Buffer.of(2), tail]));
			}),
			{ numRuns: 300 },
		);
	});
});
