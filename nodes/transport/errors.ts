/**
 * Hints shown next to the orchestration service's error codes (orchestration-service.md §7,
 * public-notes.md). A service with codes of its own passes them as ServiceCall.hints.
 */
export const ERROR_HINTS: Record<string, string> = {
	scope_required:
		'The client key lacks a scope this operation needs. Add the scope to the key in the partner dashboard, or use a server key.',
	forbidden: 'No client key can call this endpoint. Use the Orchestration Server Key credential (fn_...).',
	origin_required: 'This browser-mode client key needs an Origin. Set "Origin" in the Orchestration Client Key credential.',
	origin_not_allowed: "The credential's Origin is not in the key's allowed origins. Fix the Origin or the key's allowed origins.",
	read_token_required: 'Client-key reads need the read token returned by the quote, submit or onramp step. Pass it in "Read Token".',
	invalid_read_token:
		'The read token expired (24 h) or belongs to another key, partner or identifier. Use the token from the step that created this quote or order.',
	client_key_fee_fields_forbidden: 'Client keys cannot send fee fields (app fees, affiliate overrides). Remove them or use a server key.',
	turnstile_required: 'Browser verification is on for this key: send the verification token.',
	turnstile_failed: 'The browser verification token was rejected.',
	calldata_unsupported_source: 'Calldata is only available for EVM native and ERC-20 sources. Turn off "Include Calldata".',
	unauthorized: 'The key is unknown, disabled or revoked. Check the API key in the credential.',
	auth_required: 'The request needs an API key.',
	partner_disabled: 'The partner account is disabled.',
	account_pending_approval: 'The partner account is waiting for approval.',
	account_rejected: 'The partner account was rejected.',
	missing_idempotency_key: 'The service needs an idempotency key for this operation.',
	invalid_idempotency_key: 'Idempotency keys are 1 to 255 printable ASCII characters.',
	idempotency_conflict:
		'This idempotency key was already used with a different request. Use a new key for a changed request (the service stores the first answer, errors included).',
	idempotency_in_progress: 'The same request is still being processed; it was retried until the retry budget ran out.',
	quote_expired: 'The quote is older than 2 minutes. Create a new quote.',
	unsupported_route: 'This source and destination pair is not routable. Check the Routes listing.',
	unsupported_amount_mode: 'This route does not support the chosen amount mode.',
	rate_limited: 'Rate limit reached; the request was retried within the 30 s retry budget (a longer Retry-After is not waited out). Try again later.',
	not_found: 'Nothing with this identifier exists for this partner.',
	payload_too_large: 'The request body is larger than 1 MiB.',
};

/** Which scope each operation needs from a client key (orchestration-service.md §5). */
export function scopeHint(requiredScope: string | undefined): string | undefined {
	return requiredScope ? `This operation needs the client-key scope "${requiredScope}".` : undefined;
}

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
		h = (Math.imul((h - Math.imul(text.charCodeAt(start), top)) >>> 0, HASH_BASE) + text.charCodeAt(start + size)) >>> 0;
	}
}
