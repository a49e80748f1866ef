import { echoPieceLength, PARTIAL_ECHO_CHARS, redact } from '../../../nodes/shared/redact';

const KEY = 'fn_live_Q7x9/Zk+2a&b=c"d\\e';

describe('redact', () => {
	it('removes a secret echoed as is', () => {
		expect(redact(`bad key ${KEY} here`, [KEY])).toBe('bad key [redacted] here');
	});

	it('removes a URL-encoded echo', () => {
		expect(redact(`GET /x?key=${encodeURIComponent(KEY)}&y=1`, [KEY])).toBe('GET /x?key=[redacted]&y=1');
	});

	it('removes a URL-encoded echo with lower-case percent escapes', () => {
		const lowerEscapes = encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
		expect(redact(`key=${lowerEscapes}`, [KEY])).toBe('key=[redacted]');
	});

	it('removes a JSON-escaped echo', () => {
		const body = JSON.stringify({ got: KEY });
		expect(body).toContain('\\"d\\\\e');
		expect(redact(body, [KEY])).toBe('{"got":"[redacted]"}');
	});

	it('removes an upper-case echo', () => {
		expect(redact(`KEY ${KEY.toUpperCase()} UNKNOWN`, [KEY])).toBe('KEY [redacted] UNKNOWN');
	});

	it('removes partial echoes of at least half the secret (prefix, middle, suffix)', () => {
		const secret = 'whsec_0123456789abcdefghij';
		expect(echoPieceLength(secret.length)).toBe(13);
		expect(redact(`prefix ${secret.slice(0, 13)}...`, [secret])).toBe('prefix [redacted]...');
		expect(redact(`middle ${secret.slice(5, 20)}!`, [secret])).toBe('middle [redacted]!');
		expect(redact(`...${secret.slice(-14)} suffix`, [secret])).toBe('...[redacted] suffix');
		// Shorter pieces are not evidence of the secret: shared prefixes and words a key may contain.
		expect(redact('whsec_012345 is a prefix', [secret])).toBe('whsec_012345 is a prefix');
		expect(redact('account_pending_approval', ['fn_sandbox_server_pending'])).toBe('account_pending_approval');
		expect(echoPieceLength(7)).toBe(7);
		expect(echoPieceLength(PARTIAL_ECHO_CHARS)).toBe(PARTIAL_ECHO_CHARS);
	});

	it('ignores whitespace around a pasted secret', () => {
		expect(redact('Bearer fn_abcdefgh_1234 ', ['fn_abcdefgh_1234 \n'])).toBe('Bearer [redacted] ');
	});

	it('removes secrets shorter than 4 characters', () => {
		expect(redact('token=ab1; other', ['ab1'])).toBe('token=[redacted]; other');
		expect(redact('pin 7 used', ['7'])).toBe('pin [redacted] used');
	});

	it('leaves no tail of overlapping secrets', () => {
		const a = 'abcdefghij1234';
		const b = 'ghij1234567890xyz';
		expect(redact(`x abcdefghij1234567890xyz y`, [a, b])).toBe('x [redacted] y');
		expect(redact(`x abcdefghij1234567890xyz y`, [b, a])).toBe('x [redacted] y');
		// One secret inside another: the longer one is gone entirely.
		expect(redact('k=secret-long-value-123', ['long-value', 'secret-long-value-123'])).toBe('k=[redacted]');
	});

	it('keeps text without secrets byte for byte, including non-ASCII', () => {
		const text = 'İstanbul naïve – Ω ok';
		expect(redact(text, ['zzzzzzzzzz', undefined, ''])).toBe(text);
	});

	it('is linear: a 1 MB text with a long secret is redacted', () => {
		const secret = 'k'.repeat(200) + 'q';
		const text = 'a'.repeat(1_000_000) + secret;
		// About 0.1 s (`npm run bench -- bounds`); quadratic matching would take hours, past the test's timeout.
		expect(redact(text, [secret]).endsWith('a[redacted]')).toBe(true);
	});
});
