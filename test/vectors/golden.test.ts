/* eslint-disable @typescript-eslint/no-explicit-any -- vectors and sandbox answers are plain JSON */
/**
 * Golden vectors typed from the spec's text and computed with independent tools
 * (test/vectors/make_vectors.py: Python hashlib/hmac, pyca/cryptography RFC 6979, pycryptodome
 * Keccak). Both the node's protocol core and the sandbox's verifier and signer must reproduce them,
 * so the two cannot share a misreading of execution-gateway.md §2.4 or orchestration-service.md §6.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	buildCanonicalIntent,
	intentDigest,
	serializeCanonicalIntent,
	serializeWireIntent,
	verifyIntentSignature,
} from '../../nodes/shared/gateway/canonical';
import {
	type WireIntent,
} from '../../nodes/shared/gateway/intentFields';
import { bytesToHex } from '../../nodes/shared/gateway/hex';
import { publicKeyFromPrivateKey } from '../../nodes/shared/gateway/keys';
import { sha256Bytes, signChallenge, signDigestDer, verifyDerSignature } from '../../nodes/shared/gateway/keys';
import { computeWebhookSignature, verifyWebhookSignature } from '../../nodes/shared/orchestration/webhooks';
import { startSandbox, webhookSignature } from '../../sandbox';
import { intentMessageOfWire } from '../../sandbox/gateway/admission';
import { canonicalMessage, parseIntentJson, publicKeyOfPrivateKey, sha256, verifiesDer } from '../../sandbox/gateway/intent';
import { receiver } from '../sandbox/helpers';

const intents = JSON.parse(readFileSync(join(__dirname, 'canonical-intent.json'), 'utf8'));
const hooks = JSON.parse(readFileSync(join(__dirname, 'webhook-signature.json'), 'utf8'));
const intentCases: Array<[string, any]> = intents.vectors.map((v: any) => [v.name, v]);
const hookCases: Array<[string, any]> = hooks.vectors.map((v: any) => [v.name, v]);

describe('canonical intent (execution-gateway.md §2.4): the node side', () => {
	it('the fixed key gives the fixed public key', () => {
		expect(publicKeyFromPrivateKey(intents.privateKey)).toBe(intents.publicKey);
	});

	it.each(intentCases)('%s', (_name, v) => {
		const canonical = buildCanonicalIntent(v.wire as WireIntent);
		expect(serializeCanonicalIntent(canonical)).toBe(v.canonical);
		const digest = intentDigest(canonical);
		expect(bytesToHex(digest)).toBe(v.sha256);
		expect(bytesToHex(sha256Bytes(v.canonical))).toBe(v.sha256);
		// RFC 6979 makes the signature deterministic: the node signs exactly the reference bytes.
		expect(signDigestDer(digest, intents.privateKey)).toBe(v.signatureRfc6979LowS);
		expect(verifyDerSignature(v.signatureRfc6979LowS, digest, intents.publicKey)).toBe(true);
		expect(verifyIntentSignature(v.wire as WireIntent, v.signatureRfc6979LowS, intents.publicKey)).toBe(true);
		// §2.1 request text: deposits/sparkTransferId on the wire, u64 amounts as bare digits.
		expect(serializeWireIntent({ ...(v.wire as WireIntent), signature: v.signatureRfc6979LowS })).toBe(v.wireBody);
	});
});

describe('canonical intent: the sandbox side, its own reading of §2.1 and §2.4', () => {
	const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

	it('the fixed key gives the fixed public key', () => {
		expect(publicKeyOfPrivateKey(intents.privateKey)).toBe(intents.publicKey);
	});

	it.each(intentCases)('%s: the wire fields (as typed, and as the request text parses) give the reference message, digest and a verifying signature', (_name, v) => {
		const now = v.wire.expiresAt - 3_600_000;
		for (const body of [v.wire, parseIntentJson(v.wireBody)]) {
			const { message, tx } = intentMessageOfWire(body, now);
			const canonical = canonicalMessage(message);
			expect(canonical).toBe(v.canonical);
			expect(hex(sha256(canonical))).toBe(v.sha256);
			expect(verifiesDer(v.signatureRfc6979LowS, sha256(canonical), intents.publicKey)).toBe(true);
			expect(verifiesDer(v.signatureRfc6979LowS, sha256(`${canonical} `), intents.publicKey)).toBe(false);
			if (v.wire.evmTransaction !== undefined) {
				// §2.4 signedTxHash: keccak256 of the signed transaction, for the transaction's own chain
				expect(tx?.hash).toBe(JSON.parse(v.canonical).action.signedTxHash);
				expect(tx?.chainId).toBe(BigInt(v.wire.chainId));
			} else expect(tx).toBeUndefined();
		}
	});

	it('the deposit-and-execute vector is among them', () => {
		expect(intentCases.map(([, v]) => JSON.parse(v.canonical).action.type)).toContain('execute');
	});
});

describe('canonical intent: the sandbox gateway admits the reference request over HTTP', () => {
	/** A sandbox whose execution chain is the vector's (the deposit-and-execute transaction is signed for chain 1). */
	async function admit(v: any, body: string): Promise<{ status: number; json: any }> {
		const sb = await startSandbox({ quiet: true, config: { gateway: { chainId: v.wire.chainId, privateKeys: [intents.privateKey] } } });
		// Injected wall clock: the vectors expire in 2030; admission compares expiresAt with "now" (§8).
		sb.clock.now = () => v.wire.expiresAt - 3_600_000;
		try {
			const post = async (path: string, payload: string, token?: string) => {
				const res = await fetch(sb.gatewayUrl + path, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
					body: payload,
				});
				return { status: res.status, json: (await res.json()) as any };
			};
			const challenge = await post('/api/v1/auth/challenge', JSON.stringify({ publicKey: intents.publicKey }));
			const signature = signChallenge(challenge.json.challengeString, intents.privateKey);
			const verified = await post('/api/v1/auth/verify', JSON.stringify({ publicKey: intents.publicKey, signature }));
			return await post('/api/v1/execute', body, verified.json.accessToken);
		} finally {
			await sb.close();
		}
	}

	it.each(intentCases)('%s: accepted with the reference signature', async (_name, v) => {
		const res = await admit(v, v.wireBody);
		expect(res.status).toBe(200);
		expect(res.json.status).toBe('ACCEPTED');
	});

	it.each(intentCases)('%s: the same signature over another nonce is refused', async (_name, v) => {
		const tampered = v.wireBody.replace(`"nonce":${JSON.stringify(v.wire.nonce)}`, `"nonce":${JSON.stringify(`${v.wire.nonce}x`)}`);
		expect(tampered).not.toBe(v.wireBody);
		const res = await admit(v, tampered);
		expect([res.status, res.json.error.code]).toEqual([400, 'invalid_signature']);
	});
});

describe('webhook signature (orchestration-service.md §6)', () => {
	it.each(hookCases)('node side: %s', (_name, v) => {
		expect(computeWebhookSignature(v.secret, v.timestamp, v.rawBody)).toBe(v.signature);
		expect(computeWebhookSignature(v.secret, v.timestamp, Buffer.from(v.rawBody, 'utf8'))).toBe(v.signature);
		const nowMs = Number(v.timestamp);
		expect(verifyWebhookSignature({ secret: v.secret, signature: v.signature, timestamp: v.timestamp, rawBody: Buffer.from(v.rawBody, 'utf8'), nowMs })).toEqual({ ok: true, timestampMs: nowMs });
		const reserialized = JSON.stringify(JSON.parse(v.rawBody));
		if (reserialized !== v.rawBody) {
			expect(verifyWebhookSignature({ secret: v.secret, signature: v.signature, timestamp: v.timestamp, rawBody: reserialized, nowMs }).ok).toBe(false);
		}
	});

	it.each(hookCases)('sandbox side: its signer (the one tests sign their own deliveries with) gives the reference signature (%s)', (_name, v) => {
		expect(webhookSignature(v.secret, v.timestamp, v.rawBody)).toBe(v.signature);
	});

	it.each(hookCases)('sandbox side: a delivery of the same bytes at the same time carries the reference signature (%s)', async (_name, v) => {
		const sb = await startSandbox({ quiet: true });
		const sink = await receiver();
		sb.clock.now = () => Number(v.timestamp);
		try {
			const control = async (path: string, body: unknown) =>
				(await fetch(sb.orchestrationUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
			const hook = await control('/sandbox/webhooks', { url: sink.url, secret: v.secret });
			await control(`/sandbox/webhooks/${hook.webhookId}/deliveries`, { rawBody: v.rawBody });
			for (let i = 0; i < 200 && sink.received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
			const [got] = sink.received;
			expect(got.raw.toString('utf8')).toBe(v.rawBody);
			expect(got.headers['x-service-timestamp']).toBe(v.timestamp);
			expect(got.headers['x-service-signature']).toBe(v.signature);
		} finally {
			await sink.close();
			await sb.close();
		}
	});
});
