/**
 * Removes secrets from any text before it reaches an error, output or log: whole, partial,
 * URL-encoded, JSON-escaped and in any letter case. Pure: the credentials, the transport and the
 * event stream all use it.
 */

/**
 * A partial echo is a piece of at least half a secret and at least this many characters: enough
 * to weaken the secret, longer than shared prefixes (`fn_live_`) and words a key may contain.
 */
export const PARTIAL_ECHO_CHARS = 8;

/** Length of the smallest piece of a secret (of this spelling length) that counts as an echo. */
export function echoPieceLength(length: number): number {
	return length < PARTIAL_ECHO_CHARS ? length : Math.max(PARTIAL_ECHO_CHARS, Math.ceil(length / 2));
}

/** ASCII-only lower case: keeps every index of the text in place (toLowerCase may change lengths). */
function asciiLower(text: string): string {
	return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** The spellings a service may echo a secret in: as is, URL-encoded, JSON-escaped (all matched case-insensitively). */
function spellingsOf(raw: string): string[] {
	// Surrounding whitespace is not part of the secret (credentials send it trimmed).
	const secret = raw.trim();
	const json = JSON.stringify(secret).slice(1, -1);
	let url = secret;
	try {
		url = encodeURIComponent(secret);
	} catch {
		// A lone surrogate cannot be URL-encoded, so it cannot be echoed that way either.
	}
	return [...new Set([secret, url, json].filter((s) => s !== '').map(asciiLower))];
}

/** Windows of each spelling: a short secret matches only whole, a longer one through any piece of echoPieceLength. */
function windowsBySize(secrets: Array<string | undefined>): Map<number, Set<string>> {
	const bySize = new Map<number, Set<string>>();
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret === '') continue;
		for (const spelling of spellingsOf(secret)) {
			const size = echoPieceLength(spelling.length);
			const set = bySize.get(size) ?? new Set<string>();
			for (let i = 0; i + size <= spelling.length; i++) set.add(spelling.slice(i, i + size));
			bySize.set(size, set);
		}
	}
	return bySize;
}

/**
 * Removes every secret from a text before it reaches an error, output or log: whole, partial,
 * URL-encoded, JSON-escaped and in any letter case. Overlapping matches merge into one
 * `[redacted]`, so no tail of a longer secret survives. Linear in the text length.
 */
export function redact(text: string, secrets: Array<string | undefined>): string {
	const bySize = windowsBySize(secrets);
	if (bySize.size === 0 || text === '') return text;
	const lower = asciiLower(text);
	const covered = new Int32Array(text.length + 1);
	for (const [size, windows] of bySize) {
		for (const start of windowMatches(lower, size, windows)) {
			covered[start]++;
			covered[start + size]--;
		}
	}
	let out = '';
	let depth = 0;
	for (let i = 0; i < text.length; i++) {
		const wasInside = depth > 0;
		depth += covered[i];
		if (depth > 0 && !wasInside) out += '[redacted]';
		if (depth === 0) out += text[i];
	}
	return out;
}

const HASH_BASE = 257;

/** Polynomial hash of `text[from, from + size)`, modulo 2^32. */
function hashOf(text: string, from: number, size: number): number {
	let h = 0;
	for (let i = from; i < from + size; i++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(i)) >>> 0;
	return h;
}

/** Starts of every `size`-long window of `text` that is in `windows`: a rolling hash, so linear in the text. */
function* windowMatches(text: string, size: number, windows: Set<string>): Generator<number> {
	if (text.length < size) return;
	const hashes = new Set([...windows].map((w) => hashOf(w, 0, size)));
	let top = 1;
	for (let i = 1; i < size; i++) top = Math.imul(top, HASH_BASE) >>> 0;
	let h = hashOf(text, 0, size);
	for (let start = 0; ; start++) {
		// A hash hit is confirmed on the text itself, so a collision never redacts.
		if (hashes.has(h) && windows.has(text.slice(start, start + size))) yield start;
		if (start + size >= text.length) return;
		h =
			(Math.imul((h - Math.imul(text.charCodeAt(start), top)) >>> 0, HASH_BASE) +
				text.charCodeAt(start + size)) >>>
			0;
	}
}
