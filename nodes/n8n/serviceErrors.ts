/**
 * A service's answer (or its silence) as n8n's error: the service's code, HTTP status, message,
 * a hint and the attempts made, with every secret of the call redacted.
 */
import type { JsonObject } from 'n8n-workflow';
import { redact } from '../shared/redact';
import { DeadlineExceeded } from './deadline';
import { ServiceError } from './errors';
import type { FullResponse, RequestContext, ServiceCall } from './serviceCall';

/**
 * Hints for the codes of the shared HTTP rules (idempotency keys, rate limits, body size) that any
 * service of this package may answer. A service passes hints for its own codes as ServiceCall.hints.
 */
export const COMMON_HINTS: Record<string, string> = {
	missing_idempotency_key: 'The service needs an idempotency key for this operation.',
	invalid_idempotency_key: 'Idempotency keys are 1 to 255 printable ASCII characters.',
	idempotency_conflict:
		'This idempotency key was already used with a different request. Use a new key for a changed request (the service stores the first answer, errors included).',
	idempotency_in_progress: 'The same request is still being processed; it was retried until the retry budget ran out.',
	rate_limited: 'Rate limit reached. With On Rate Limit = Wait the item waited by Retry-After up to its Max Rate Limit Wait (other calls retry within a 30 s budget). Raise that maximum or try again later.',
	payload_too_large: 'The request body is larger than 1 MiB.',
};

/** Which scope each operation needs from a client key (orchestration-service.md §5). */
export function scopeHint(requiredScope: string | undefined): string | undefined {
	return requiredScope ? `This operation needs the client-key scope "${requiredScope}".` : undefined;
}

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

/**
 * Throws the service's error as a ServiceError: code, HTTP status, message, a hint and the attempts
 * made; `detail` (why it was not retried) comes before the hint.
 */
export async function throwServiceError(ctx: RequestContext, call: ServiceCall, res: FullResponse, attempts: number, detail?: string): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const { code, message } = errorOf(res.body);
	const clean = (t: string) => redact(t, secrets);
	const bodyText = code ? '' : errorBodyText(res.body, secrets);
	const what = code ? `${code}: ${message ?? 'no message'}` : `HTTP ${res.statusCode}${bodyText ? `: ${bodyText}` : ' (empty body)'}`;
	const hint =
		code === 'scope_required'
			? (scopeHint(call.requiredScope) ?? call.hints?.[code])
			: code
				? (call.hints?.[code] ?? COMMON_HINTS[code])
				: undefined;
	const retried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const description = [detail, hint].filter((t): t is string => t !== undefined && t !== '').join(' ');
	const errorResponse: JsonObject = {
		code: code ?? null,
		message: clean(message ?? (bodyText || `HTTP ${res.statusCode}`)),
		httpCode: String(res.statusCode),
	};
	// Callers tell an answer to a retry (an earlier attempt may have acted) from a first answer by `attempts`.
	throw new ServiceError(ctx.getNode(), errorResponse, {
		message: clean(`${what}${retried}`),
		description: description ? clean(description) : undefined,
		httpCode: String(res.statusCode),
		itemIndex: call.itemIndex,
		errorCode: code,
		attempts,
	});
}

/** `scheme://host[:port]` of a Location header (never its path or query, which may carry data), or why there is none. */
function originOf(location: unknown, base: string): string {
	const text = Array.isArray(location) ? location[0] : location;
	if (typeof text !== 'string' || text.trim() === '') return 'no address (no Location header)';
	try {
		return new URL(text.trim(), base).origin;
	} catch {
		return 'an address that is not a URL';
	}
}

/**
 * A redirect answer (3xx): never followed, so neither the key nor the body went anywhere else. The
 * error names where it pointed (its origin only) and what to fix; it is not retried.
 */
export async function throwRedirectError(ctx: RequestContext, call: ServiceCall, res: FullResponse, attempts: number): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const target = originOf(res.headers?.location, call.url);
	const here = originOf(call.url, call.url);
	const where = target === here ? `another path of ${target}` : target;
	const message = redact(`HTTP ${res.statusCode}: the service answered with a redirect to ${where}, which is not followed`, secrets);
	const description = redact(
		`Redirects are never followed, so the key and the request went nowhere else. Set the credential's URL to the address the service answers on directly (as its documentation gives it), not one that redirects (for example http:// to https://, or another host).`,
		secrets,
	);
	throw new ServiceError(ctx.getNode(), { code: 'redirect_not_followed', message, httpCode: String(res.statusCode) }, {
		message,
		description,
		httpCode: String(res.statusCode),
		itemIndex: call.itemIndex,
		errorCode: 'redirect_not_followed',
		attempts,
	});
}

export async function throwNetworkError(ctx: RequestContext, call: ServiceCall, error: unknown, attempts: number): Promise<never> {
	const secrets = await secretsOf(ctx, call);
	const e = error as { code?: string; message?: string };
	const message = redact(
		error instanceof DeadlineExceeded
			? `The service did not answer completely within ${error.ms / 1000} s, after ${attempts} attempt(s) (each attempt has this deadline)`
			: `Could not reach the service (${e.code ?? 'network error'}) after ${attempts} attempt(s)`,
		secrets,
	);
	throw new ServiceError(
		ctx.getNode(),
		{ code: e.code ?? 'network_error', message },
		{ message, description: redact(String(e.message ?? ''), secrets), itemIndex: call.itemIndex, attempts },
	);
}
