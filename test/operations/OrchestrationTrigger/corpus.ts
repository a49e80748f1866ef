/**
 * A corpus of bad deliveries: forged, tampered, replayed, stale, future and malformed. Each case is
 * built at send time (timestamps are relative to the receiver's clock) and names the status and
 * `error` code it must be answered with. Signatures come from node:crypto, never from the code
 * under test.
 */
import { createHmac } from 'node:crypto';
import { envelope, sign } from '../../harness/trigger';

export interface BadDelivery {
	name: string;
	body: Buffer;
	headers: Record<string, string | string[]>;
	status: 400 | 401;
	error: string;
}

export type BadCase = (secret: string, nowMs: number, toleranceSeconds: number) => BadDelivery;

const JSON_TYPE = { 'content-type': 'application/json' };

function headersOf(signature: string | string[] | undefined, timestamp: string | string[] | undefined): Record<string, string | string[]> {
	return {
		...JSON_TYPE,
		...(signature !== undefined ? { 'x-service-signature': signature } : {}),
		...(timestamp !== undefined ? { 'x-service-timestamp': timestamp } : {}),
	};
}

function bodyOf(value: unknown): Buffer {
	return Buffer.from(JSON.stringify(value), 'utf8');
}

/** The body every tampering case starts from; its bytes are what a genuine delivery would carry. */
function baseBody(): Buffer {
	return bodyOf(envelope({ event: 'order.completed', id: 'ord_corpus_base', updatedAt: '2025-01-01T00:00:00.000Z' }));
}

function mismatch(name: string, build: (secret: string, ts: string) => { body: Buffer; signature: string; timestamp?: string }): BadCase {
	return (secret, now) => {
		const ts = String(now);
		const { body, signature, timestamp } = build(secret, ts);
		return { name, body, headers: headersOf(signature, timestamp ?? ts), status: 401, error: 'signature_mismatch' };
	};
}

/** What `String(secret)` made of a secret that did not resolve to a string (issue 14, point 3). */
export const PUBLIC_KEYS = ['undefined', 'null', '[object Object]', '', 'true', 'false', '0', 'NaN', '[object Array]'];

function generated(): BadCase[] {
	const cases: BadCase[] = [];

	// Wrong secrets: near misses of the real one and unrelated ones.
	const wrongSecrets: Array<[string, (s: string) => string]> = [
		['other random secret', () => 'whsec_' + 'x'.repeat(40)],
		['secret with last char changed', (s) => s.slice(0, -1) + (s.endsWith('a') ? 'b' : 'a')],
		['secret with first char changed', (s) => (s.startsWith('a') ? 'b' : 'a') + s.slice(1)],
		['secret prefix only', (s) => s.slice(0, Math.floor(s.length / 2))],
		['secret plus one char', (s) => s + 'x'],
		['secret upper-cased', (s) => s.toUpperCase()],
		['secret with trailing newline', (s) => s + '\n'],
		['secret reversed', (s) => [...s].reverse().join('')],
		['webhook id used as secret', () => 'wh_1'],
		['api key used as secret', () => 'fn_sandbox_server_partner1'],
	];
	for (const [label, wrong] of wrongSecrets) {
		cases.push(mismatch(`wrong secret: ${label}`, (secret, ts) => {
			const body = baseBody();
			return { body, signature: sign(wrong(secret), ts, body) };
		}));
	}

	// One flipped bit anywhere in the body, signature of the original bytes.
	const base = baseBody();
	const positions = new Set<number>();
	for (let i = 0; i < 40; i++) positions.add(Math.floor((i * (base.length - 1)) / 39));
	for (const pos of positions) {
		cases.push(mismatch(`tampered byte at ${pos}`, (secret, ts) => {
			const original = baseBody();
			const body = Buffer.from(original);
			body[pos] ^= 0x01;
			return { body, signature: sign(secret, ts, original) };
		}));
	}

	// A valid signature of another body.
	const others: Array<[string, (b: Buffer) => Buffer]> = [
		['other event', () => bodyOf(envelope({ event: 'order.failed', id: 'ord_corpus_base', updatedAt: '2025-01-01T00:00:00.000Z' }))],
		['other order id', () => bodyOf(envelope({ event: 'order.completed', id: 'ord_corpus_other', updatedAt: '2025-01-01T00:00:00.000Z' }))],
		['re-serialized with indentation', (b) => Buffer.from(JSON.stringify(JSON.parse(b.toString()), null, 2))],
		['trailing newline added', (b) => Buffer.concat([b, Buffer.from('\n')])],
		['leading space added', (b) => Buffer.concat([Buffer.from(' '), b])],
		['empty body', () => Buffer.alloc(0)],
		['truncated by one byte', (b) => b.subarray(0, b.length - 1)],
		['keys reordered', (b) => {
			const o = JSON.parse(b.toString());
			return bodyOf({ data: o.data, timestamp: o.timestamp, event: o.event });
		}],
		['amount changed', (b) => {
			const o = JSON.parse(b.toString());
			o.data.amountIn = '9999999999';
			return bodyOf(o);
		}],
		['unicode escaped', (b) => Buffer.from(b.toString().replace('o', '\\u006f'))],
	];
	for (const [label, other] of others) {
		cases.push(mismatch(`signature of another body: ${label}`, (secret, ts) => {
			const body = baseBody();
			return { body, signature: sign(secret, ts, other(body)) };
		}));
	}
	// The body of the signed pair is the altered one, the signature covers the original.
	for (const [label, other] of others.slice(2, 5)) {
		cases.push(mismatch(`altered body, original signature: ${label}`, (secret, ts) => {
			const original = baseBody();
			return { body: other(original), signature: sign(secret, ts, original) };
		}));
	}

	// Keys an unresolved secret used to become (String(undefined), ...): public, so never valid.
	for (const publicKey of PUBLIC_KEYS) {
		cases.push(mismatch(`signed with the public key ${JSON.stringify(publicKey)}`, (_secret, ts) => {
			const body = baseBody();
			return { body, signature: sign(publicKey, ts, body) };
		}));
	}

	// One hex digit of the correct signature changed (still 64 valid hex characters).
	for (let pos = 0; pos < 64; pos += 2) {
		cases.push(mismatch(`hex digit ${pos} of the signature changed`, (secret, ts) => {
			const body = baseBody();
			const good = sign(secret, ts, body);
			return { body, signature: good.slice(0, pos) + (good[pos] === 'f' ? '0' : 'f') + good.slice(pos + 1) };
		}));
	}

	// Signature over one timestamp, another timestamp in the header.
	for (const delta of [-1000, -1, 1, 1000, 60_000]) {
		cases.push((secret, now) => {
			const body = baseBody();
			return {
				name: `timestamp header differs from the signed one by ${delta} ms`,
				body,
				headers: headersOf(sign(secret, String(now), body), String(now + delta)),
				status: 401,
				error: 'signature_mismatch',
			};
		});
	}

	// Signature header formats.
	const signatureFormats: Array<[string, (sig: string) => string]> = [
		['63 hex chars', (s) => s.slice(0, 63)],
		['32 hex chars', (s) => s.slice(0, 32)],
		['1 hex char', (s) => s.slice(0, 1)],
		['65 hex chars', (s) => s + '0'],
		['signature twice', (s) => s + s],
		['non-hex char at start', (s) => 'g' + s.slice(1)],
		['non-hex char at end', (s) => s.slice(0, 63) + 'z'],
		['non-hex char in the middle', (s) => s.slice(0, 31) + 'x' + s.slice(32)],
		['sha256= prefix', (s) => `sha256=${s}`],
		['base64 of the digest', (s) => Buffer.from(s, 'hex').toString('base64')],
		['space inside', (s) => s.slice(0, 32) + ' ' + s.slice(33)],
		['0x prefix', (s) => '0x' + s.slice(2)],
		['two comma-joined signatures', (s) => `${s},${s}`],
		['v1= scheme', (s) => `t=1,v1=${s}`],
	];
	for (const [label, alter] of signatureFormats) {
		cases.push((secret, now) => {
			const body = baseBody();
			const ts = String(now);
			return {
				name: `malformed signature: ${label}`,
				body,
				headers: headersOf(alter(sign(secret, ts, body)), ts),
				status: 401,
				error: 'malformed_signature',
			};
		});
	}

	// Timestamp header formats (signed over the very header value, so only the format is wrong).
	const timestampFormats: Array<[string, (now: number) => string]> = [
		['letters', () => 'abc'],
		['negative', (n) => `-${n}`],
		['decimal point', (n) => `${n}.0`],
		['exponent', (n) => (n / 1e12).toFixed(3) + 'e12'],
		['hex', (n) => '0x' + n.toString(16)],
		['plus sign', (n) => `+${n}`],
		['16 digits', (n) => `000${n}`],
		['ISO date', (n) => new Date(n).toISOString()],
		['HTTP date', (n) => new Date(n).toUTCString()],
		['space inside', (n) => `${String(n).slice(0, 4)} ${String(n).slice(4)}`],
		['comma-joined twice', (n) => `${n},${n}`],
		['microseconds (16 digits)', (n) => String(n * 1000)],
	];
	for (const [label, format] of timestampFormats) {
		cases.push((secret, now) => {
			const body = baseBody();
			const ts = format(now);
			return {
				name: `malformed timestamp: ${label}`,
				body,
				headers: headersOf(sign(secret, ts, body), ts),
				status: 401,
				error: 'malformed_timestamp',
			};
		});
	}

	// Outside the tolerance, validly signed (replays, delayed copies, clock errors).
	const clockCases: Array<[string, (now: number, tol: number) => number, string]> = [
		['stale by tolerance + 1 s', (n, t) => n - (t + 1) * 1000, 'stale_timestamp'],
		['stale by tolerance + 60 s', (n, t) => n - (t + 60) * 1000, 'stale_timestamp'],
		['stale by a day', (n) => n - 86_400_000, 'stale_timestamp'],
		['seconds instead of milliseconds', (n) => Math.floor(n / 1000), 'stale_timestamp'],
		['zero', () => 0, 'stale_timestamp'],
		['future by tolerance + 1 s', (n, t) => n + (t + 1) * 1000, 'future_timestamp'],
		['future by an hour', (n) => n + 3_600_000, 'future_timestamp'],
	];
	for (const [label, at, error] of clockCases) {
		cases.push((secret, now, tol) => {
			const body = baseBody();
			const ts = String(at(now, tol));
			return { name: label, body, headers: headersOf(sign(secret, ts, body), ts), status: 401, error };
		});
	}
	return cases;
}

function handWritten(): BadCase[] {
	const c: BadCase[] = [];
	const add = (name: string, status: 400 | 401, error: string, build: (secret: string, ts: string) => { body: Buffer; headers: Record<string, string | string[]> }) =>
		c.push((secret, now) => ({ name, status, error, ...build(secret, String(now)) }));

	add('no signature headers at all', 401, 'missing_signature', () => ({ body: baseBody(), headers: { ...JSON_TYPE } }));
	add('timestamp without signature', 401, 'missing_signature', (_s, ts) => ({ body: baseBody(), headers: headersOf(undefined, ts) }));
	add('signature without timestamp', 401, 'missing_timestamp', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(sign(s, ts, body), undefined) };
	});
	add('empty signature header', 401, 'missing_signature', (_s, ts) => ({ body: baseBody(), headers: headersOf('', ts) }));
	add('empty timestamp header', 401, 'missing_timestamp', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(sign(s, ts, body), '') };
	});
	add('signature header sent twice (joined by the HTTP parser)', 401, 'malformed_signature', (s, ts) => {
		const body = baseBody();
		const sig = sign(s, ts, body);
		return { body, headers: headersOf([sig, sig], ts) };
	});
	add('timestamp header sent twice (joined by the HTTP parser)', 401, 'malformed_timestamp', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(sign(s, ts, body), [ts, ts]) };
	});
	add('signature in another header name', 401, 'missing_signature', (s, ts) => {
		const body = baseBody();
		return { body, headers: { ...JSON_TYPE, 'x-signature': sign(s, ts, body), 'x-service-timestamp': ts } };
	});
	add('HMAC-SHA1 instead of SHA-256', 401, 'malformed_signature', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(createHmac('sha1', s).update(`${ts}.`).update(body).digest('hex'), ts) };
	});
	add('HMAC-SHA512 truncated to 64 hex chars', 401, 'signature_mismatch', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(createHmac('sha512', s).update(`${ts}.`).update(body).digest('hex').slice(0, 64), ts) };
	});
	add('signed without the "." separator', 401, 'signature_mismatch', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(createHmac('sha256', s).update(ts).update(body).digest('hex'), ts) };
	});
	add('signed over the body only', 401, 'signature_mismatch', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(createHmac('sha256', s).update(body).digest('hex'), ts) };
	});
	add('signed body + "." + timestamp (wrong order)', 401, 'signature_mismatch', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(createHmac('sha256', s).update(body).update(`.${ts}`).digest('hex'), ts) };
	});
	add('signed with the payload timestamp instead of the header', 401, 'signature_mismatch', (s, ts) => {
		const env = { ...envelope(), timestamp: '2025-01-01T00:00:00.000Z' };
		const body = bodyOf(env);
		return { body, headers: headersOf(sign(s, String(Date.parse(String(env.timestamp))), body), ts) };
	});
	add('upper-case hex of a signature made with a wrong secret', 401, 'signature_mismatch', (s, ts) => {
		const body = baseBody();
		return { body, headers: headersOf(sign(s + 'x', ts, body).toUpperCase(), ts) };
	});
	add('all-zero signature', 401, 'signature_mismatch', (_s, ts) => ({ body: baseBody(), headers: headersOf('0'.repeat(64), ts) }));
	add('empty body, unsigned', 401, 'missing_signature', () => ({ body: Buffer.alloc(0), headers: { ...JSON_TYPE } }));
	add('empty body signed as a non-empty one', 401, 'signature_mismatch', (s, ts) => ({
		body: Buffer.alloc(0),
		headers: headersOf(sign(s, ts, baseBody()), ts),
	}));

	// Validly signed, but not an acceptable body: 400, no run.
	const signedBad = (name: string, error: string, raw: string | Buffer) =>
		add(name, 400, error, (s, ts) => {
			const body = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
			return { body, headers: headersOf(sign(s, ts, body), ts) };
		});
	signedBad('non-JSON body with a valid signature', 'invalid_json', 'event=order.completed&id=1');
	signedBad('empty body with a valid signature', 'invalid_json', '');
	signedBad('truncated JSON with a valid signature', 'invalid_json', '{"event":"order.completed","data":{"id":"x"');
	signedBad('JSON with a byte-order mark', 'invalid_json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), baseBody()]));
	signedBad('JSON array', 'invalid_envelope', '[]');
	signedBad('JSON null', 'invalid_envelope', 'null');
	signedBad('JSON string', 'invalid_envelope', '"order.completed"');
	signedBad('JSON number', 'invalid_envelope', '42');
	signedBad('envelope without event', 'invalid_envelope', JSON.stringify({ data: { id: 'ord_1', updatedAt: 'x' } }));
	signedBad('envelope with an empty event', 'invalid_envelope', JSON.stringify({ event: '', data: { id: 'ord_1' } }));
	signedBad('envelope with a numeric event', 'invalid_envelope', JSON.stringify({ event: 7, data: { id: 'ord_1' } }));
	signedBad('envelope without data', 'invalid_envelope', JSON.stringify({ event: 'order.completed' }));
	signedBad('envelope with data as an array', 'invalid_envelope', JSON.stringify({ event: 'order.completed', data: [] }));
	signedBad('envelope without data.id', 'invalid_envelope', JSON.stringify({ event: 'order.completed', data: { status: 'completed' } }));
	signedBad('envelope with a numeric data.id', 'invalid_envelope', JSON.stringify({ event: 'order.completed', data: { id: 12 } }));
	signedBad('envelope with an empty data.id', 'invalid_envelope', JSON.stringify({ event: 'order.completed', data: { id: '' } }));

	// Nested deeper than n8n can store: refused before parsing, whatever the depth.
	const deep = (levels: number) => `{"event":"order.completed","data":{"id":"ord_deep","x":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
	signedBad('JSON nested 65 levels deep', 'json_too_deep', deep(63));
	signedBad('JSON nested 100,000 levels deep', 'json_too_deep', deep(100_000));
	signedBad('objects nested 10,000 levels deep', 'json_too_deep', `{"event":"order.completed","data":{"id":"o","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`);

	// A member named __proto__ becomes a prototype at the first copy by assignment: refused, however spelled.
	signedBad('a __proto__ member in data', 'invalid_envelope', '{"event":"order.completed","data":{"id":"o","__proto__":{"amountIn":"1"}}}');
	signedBad('a __proto__ member spelled with escapes', 'invalid_envelope', '{"event":"order.completed","data":{"id":"o","\\u005f\\u005fproto\\u005f\\u005f":{"x":1}}}');
	signedBad('a __proto__ member at the top', 'invalid_envelope', '{"__proto__":{"event":"order.completed"},"event":"order.completed","data":{"id":"o"}}');

	// order.recovery_required goes to recovery subscriptions only (public-notes): the endpoint's secret does not verify it.
	add('order.recovery_required signed with the order endpoint\'s secret', 401, 'wrong_subscription', (s, ts) => {
		const body = bodyOf(envelope({ event: 'order.recovery_required', data: { status: 'processing', reviewStatus: 'pending_review' } }));
		return { body, headers: headersOf(sign(s, ts, body), ts) };
	});

	// The live service's header names (public-notes): the same rules, and exactly one pair.
	const live = (signature: string | undefined, timestamp: string | undefined) => ({
		...JSON_TYPE,
		...(signature !== undefined ? { 'x-flashnet-signature': signature } : {}),
		...(timestamp !== undefined ? { 'x-flashnet-timestamp': timestamp } : {}),
	});
	add('live headers: wrong secret', 401, 'signature_mismatch', (s, ts) => ({ body: baseBody(), headers: live(sign(s + 'x', ts, baseBody()), ts) }));
	add('live headers: stale', 401, 'stale_timestamp', (s, ts) => {
		const old = String(Number(ts) - 3_600_000);
		return { body: baseBody(), headers: live(sign(s, old, baseBody()), old) };
	});
	add('live headers: re-serialized body', 401, 'signature_mismatch', (s, ts) => {
		const body = baseBody();
		return { body: Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2)), headers: live(sign(s, ts, body), ts) };
	});
	add('live headers: signature without its timestamp', 401, 'missing_timestamp', (s, ts) => ({ body: baseBody(), headers: live(sign(s, ts, baseBody()), undefined) }));
	add('live signature with the spec\'s timestamp', 401, 'malformed_timestamp', (s, ts) => ({
		body: baseBody(),
		headers: { ...live(sign(s, ts, baseBody()), undefined), 'x-service-timestamp': ts },
	}));
	add('both sets, both correctly signed', 401, 'malformed_signature', (s, ts) => ({
		body: baseBody(),
		headers: { ...headersOf(sign(s, ts, baseBody()), ts), ...live(sign(s, ts, baseBody()), ts) },
	}));
	add('both sets, the live one forged', 401, 'malformed_signature', (s, ts) => ({
		body: baseBody(),
		headers: { ...headersOf(sign(s, ts, baseBody()), ts), ...live('0'.repeat(64), ts) },
	}));
	add('spec pair plus a second timestamp header', 401, 'malformed_timestamp', (s, ts) => ({
		body: baseBody(),
		headers: { ...headersOf(sign(s, ts, baseBody()), ts), 'x-flashnet-timestamp': ts },
	}));
	return c;
}

export function badDeliveries(): BadCase[] {
	return [...generated(), ...handWritten()];
}

/** A genuine delivery and a copy of it sent again, which must start nothing. */
export interface ReplayCase {
	name: string;
	body: Buffer;
	headers: Record<string, string>;
	replayHeaders: Record<string, string>;
	/** Replayed to the test URL of the same node. */
	toTestUrl: boolean;
}

const REPLAY_VARIANTS: Array<[string, (h: Record<string, string>) => Record<string, string>, boolean]> = [
	['exact copy', (h) => ({ ...h }), false],
	['upper-case signature', (h) => ({ ...h, 'x-service-signature': h['x-service-signature'].toUpperCase() }), false],
	['copy with other headers added', (h) => ({ ...h, 'user-agent': 'replayer/1.0', 'x-forwarded-for': '203.0.113.9' }), false],
	['exact copy to the test URL', (h) => ({ ...h }), true],
];

/** `events` genuine deliveries, each replayed in every variant: events x 4 cases. */
export function replayCases(secret: string, nowMs: number, events: number): ReplayCase[] {
	const cases: ReplayCase[] = [];
	for (let i = 0; i < events; i++) {
		for (const [label, alter, toTestUrl] of REPLAY_VARIANTS) {
			const body = bodyOf(envelope({ event: i % 3 ? 'order.processing' : 'order.completed' }));
			const ts = String(nowMs - i);
			const headers = { ...JSON_TYPE, 'x-service-signature': sign(secret, ts, body), 'x-service-timestamp': ts };
			cases.push({ name: `replay ${i}: ${label}`, body, headers, replayHeaders: alter(headers), toTestUrl });
		}
	}
	return cases;
}
