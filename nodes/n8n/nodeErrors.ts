/**
 * The one place where errors become n8n's: a core ProtocolError (field, reason, message) becomes an
 * ItemError naming the field and the item; service answers become a ServiceError with the service's
 * code, a hint and no secret (redacted whole, in part, encoded or in any case). The machine code
 * travels in a typed field, read by the per-item loop for continueOnFail output.
 */
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';
import { ProtocolError } from '../shared/errors';
import type { FullResponse, RequestContext, ServiceCall } from './serviceCall';

export interface ItemErrorOptions {
	itemIndex: number;
	description?: string;
	/** The service's code for the same failure (e.g. the gateway's admission code), when it has one. */
	errorCode?: string;
}

/** A failure of one item that n8n raised, not the service: bad input, a refused network state, a wait timeout. */
export class ItemError extends NodeOperationError {
	readonly errorCode?: string;

	constructor(node: INode, message: string, options: ItemErrorOptions) {
		super(node, message, { itemIndex: options.itemIndex, description: options.description });
		// n8n tells node errors apart by name (n8n-core WorkflowExecute.rethrowNodeError), not by class.
		this.name = 'NodeOperationError';
		this.errorCode = options.errorCode;
	}
}

export interface ServiceErrorOptions {
	message: string;
	itemIndex?: number;
	description?: string;
	httpCode?: string;
	/** The service's machine code (`error.code` of the body); undefined when it sent none. */
	errorCode?: string;
	/** Attempts made: more than one means an earlier attempt may have acted. */
	attempts: number;
}

/** The service answered with an error, or could not be reached. */
export class ServiceError extends NodeApiError {
	readonly errorCode?: string;
	readonly attempts: number;

	constructor(node: INode, errorResponse: JsonObject, options: ServiceErrorOptions) {
		const { errorCode, attempts, ...shown } = options;
		super(node, errorResponse, shown);
		// n8n tells node errors apart by name (n8n-core WorkflowExecute.rethrowNodeError), not by class.
		this.name = 'NodeApiError';
		this.errorCode = errorCode;
		this.attempts = attempts;
	}
}

/** One wrong field of an item: its name, what is wrong, and the service's code for the same mistake. */
export interface FieldMistake {
	field: string;
	problem: string;
	errorCode?: string;
}

/** `Invalid "<field>" in item N: <problem>`, raised before any request leaves. */
export function fieldError(node: INode, itemIndex: number, { field, problem, errorCode }: FieldMistake): ItemError {
	return new ItemError(node, `Invalid "${field}" in item ${itemIndex}: ${problem}`, {
		itemIndex,
		description: `Fix "${field}" for item ${itemIndex}; nothing was sent to the service.`,
		errorCode,
	});
}

/** How a node names the core's fields and codes (the parameter name, the service's code for it). */
export interface FieldNaming {
	field?: (coreField: string) => string;
	errorCode?: (field: string, reason?: string) => string | undefined;
}

/** Any failure of one item as n8n's error: core errors name their field; n8n's errors pass as they are. */
export function itemErrorOf(node: INode, itemIndex: number, error: unknown, naming: FieldNaming = {}): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ProtocolError && error.field !== undefined) {
		const field = naming.field?.(error.field) ?? error.field;
		return fieldError(node, itemIndex, { field, problem: error.message, errorCode: naming.errorCode?.(error.field, error.reason) });
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** The machine code of a failure, for the error item of continueOnFail. */
export function errorCodeOf(error: unknown): string | undefined {
	return error instanceof ItemError || error instanceof ServiceError ? error.errorCode : undefined;
}

// ---------------------------------------------------------------- hints and redaction

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
	rate_limited: 'Rate limit reached. With On Rate Limit = Wait the item waited by Retry-After up to its Max Rate Limit Wait (other calls retry within a 30 s budget). Raise that maximum or try again later.',
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

// ---------------------------------------------------------------- service answers as ServiceError

export function errorOf(body: unknown): { code?: string; message?: string } {
	const err = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
	if (err && typeof err === 'object') {
		return {
			code: typeof err.code === 'string' ? err.code : undefined,
			message: typeof err.message === 'string' ? err.message : undefined,
		};
	}
	return {};
}

/** Credential fields whose values are secret; a public key or the URL a token belongs to are not. */
function isSecretField(name: string): boolean {
	return /key|token|secret|password/i.test(name) && !/publickey|url$/i.test(name);
}

export async function secretsOf(ctx: RequestContext, call: ServiceCall): Promise<Array<string | undefined>> {
	const secrets = (call.secrets ?? []).flatMap((s) => (s === undefined ? [] : [s, s.trim()]));
	if (call.credentialType === undefined) return secrets;
	try {
		const creds = await ctx.getCredentials(call.credentialType);
		for (const [k, v] of Object.entries(creds)) {
			// The trimmed value too: credentials send the key trimmed, so a pasted key with a stray space would slip past.
			if (typeof v === 'string' && isSecretField(k)) secrets.push(v, v.trim());
		}
	} catch {
		// No credential to read: nothing more to redact.
	}
	return secrets;
}

/** Characters of an error body's text shown in an error; the rest is cut. */
export const ERROR_TEXT_CHARS = 300;
/** Only this much of a body is looked at, so no pattern ever runs over a huge answer. */
const ERROR_SCAN_CHARS = 4_096;

/**
 * The readable text of an error body of any shape (public-notes.md: the live service's error
 * bodies vary): a message-like field of a JSON object, else the JSON itself; HTML without its
 * tags; plain text as is. Secrets removed, whitespace collapsed, cut to ERROR_TEXT_CHARS.
 */
export function errorBodyText(body: unknown, secrets: Array<string | undefined>): string {
	if (body === undefined || body === null || body === '') return '';
	let text: string;
	if (typeof body === 'string') text = body.slice(0, ERROR_SCAN_CHARS);
	else {
		const b = body as { message?: unknown; error?: unknown; detail?: unknown; title?: unknown };
		const nested = (b.error as { message?: unknown } | undefined)?.message;
		const field = [b.message, nested, b.error, b.detail, b.title].find((v) => typeof v === 'string' && v.trim() !== '');
		text = typeof field === 'string' ? field.slice(0, ERROR_SCAN_CHARS) : (JSON.stringify(body) ?? String(body)).slice(0, ERROR_SCAN_CHARS);
	}
	if (/^\s*</.test(text)) text = text.replace(/<(script|style)[^>]*>[^<]*<\/\1>/gi, ' ').replace(/<[^>]{0,512}>/g, ' ');
	const clean = redact(text.replace(/\s+/g, ' ').trim(), secrets);
	return clean.length > ERROR_TEXT_CHARS ? `${clean.slice(0, ERROR_TEXT_CHARS)}…` : clean;
}

/** Throws the service's error as a ServiceError: code, HTTP status, message, a hint and the attempts made. */
export async function throwServiceError(ctx: RequestContext, call: ServiceCall, res: FullResponse, attempts: number): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const { code, message } = errorOf(res.body);
	const clean = (t: string) => redact(t, secrets);
	const bodyText = code ? '' : errorBodyText(res.body, secrets);
	const what = code ? `${code}: ${message ?? 'no message'}` : `HTTP ${res.statusCode}${bodyText ? `: ${bodyText}` : ' (empty body)'}`;
	const hint =
		code === 'scope_required'
			? (scopeHint(call.requiredScope) ?? ERROR_HINTS[code])
			: code
				? (call.hints?.[code] ?? ERROR_HINTS[code])
				: undefined;
	const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const errorResponse: JsonObject = {
		code: code ?? null,
		message: clean(message ?? (bodyText || `HTTP ${res.statusCode}`)),
		httpCode: String(res.statusCode),
	};
	// Callers tell an answer to a retry (an earlier attempt may have acted) from a first answer by `attempts`.
	throw new ServiceError(ctx.getNode(), errorResponse, {
		message: clean(`${what}${retried}`),
		description: hint ? clean(hint) : undefined,
		httpCode: String(res.statusCode),
		itemIndex: call.itemIndex,
		errorCode: code,
		attempts,
	});
}

export async function throwNetworkError(ctx: RequestContext, call: ServiceCall, error: unknown, attempts: number): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const e = error as { code?: string; message?: string };
	const message = redact(`Could not reach the service (${e.code ?? 'network error'}) after ${attempts} attempt(s)`, secrets);
	throw new ServiceError(
		ctx.getNode(),
		{ code: e.code ?? 'network_error', message },
		{ message, description: redact(String(e.message ?? ''), secrets), itemIndex: call.itemIndex, attempts },
	);
}
