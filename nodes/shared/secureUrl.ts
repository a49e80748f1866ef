/**
 * Where keys and tokens may be sent: https only, plain http only to this machine (loopback: the
 * sandbox), and how base URLs are written and joined. Pure: the credentials use these before they
 * add a key, the nodes to build request URLs.
 */
import { ProtocolError } from './errors';

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
	const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return octets !== null && octets[1] === '127' && octets.slice(2).every((o) => Number(o) <= 255);
}

/** Why `url` may not carry a secret, or undefined when it may. */
export function insecureUrlReason(url: unknown): string | undefined {
	const text = typeof url === 'string' ? url.trim() : '';
	if (text === '') return 'it is empty';
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return 'it is not a valid URL (for example https://api.example.com)';
	}
	if (parsed.protocol === 'https:') return undefined;
	if (parsed.protocol === 'http:') {
		return isLoopbackHost(parsed.hostname)
			? undefined
			: 'it must start with https:// (plain http:// is allowed only for loopback addresses: localhost, 127.0.0.0/8, ::1), so keys and tokens never travel unencrypted';
	}
	return `its scheme ${parsed.protocol} is not https://`;
}

/** Throws `<credential>: "<field>" <reason>` when `url` may not carry a secret. */
export function assertSecureUrl(url: unknown, credential: string, field: string): void {
	const reason = insecureUrlReason(url);
	if (reason !== undefined)
		throw new ProtocolError(`${credential}: "${field}" is refused: ${reason}`, {
			field,
			reason: 'insecure_url',
		});
}

/**
 * Redirect statuses. No request of this package follows one (a redirect could take the key to another
 * address); a credential test that meets one fails with redirectRefusal's message.
 */
export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;

/** Why a credential test failed on a redirect, naming the credential's URL field. */
export function redirectRefusal(field: string): string {
	return `The "${field}" answers with a redirect, which is not followed (the key goes nowhere else): use the address the service answers on directly`;
}

/** A base URL as credentials store it: trimmed, without trailing slashes. */
export function baseUrlOf(url: unknown): string {
	return String(url ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** A credential's base URL (baseUrlOf) joined with a path. */
export function joinUrl(baseUrl: unknown, path: string): string {
	return `${baseUrlOf(baseUrl)}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Whether `requestUrl` is `base` itself or lies under it: the same scheme, host and port, and a path
 * under the base's path, segment by segment, compared after URL parsing (so no look-alike host,
 * default port, upper case or `..` segment gets through). Not a URL: false.
 */
export function isUnderBase(requestUrl: string, base: string): boolean {
	if (base === '') return false;
	let request: URL;
	let root: URL;
	try {
		request = new URL(requestUrl);
		root = new URL(base);
	} catch {
		return false;
	}
	if (
		request.protocol !== root.protocol ||
		request.hostname !== root.hostname ||
		request.port !== root.port
	)
		return false;
	const prefix = root.pathname.replace(/\/+$/, '');
	return prefix === '' || request.pathname === prefix || request.pathname.startsWith(`${prefix}/`);
}

/**
 * The full URL a request goes to, resolved the way n8n's axios does: `url` (or the legacy `uri`),
 * joined to `baseURL` unless it is absolute (`scheme://` or protocol-relative `//`). Not a string: ''.
 */
export function requestUrlOf(options: { url?: unknown; uri?: unknown; baseURL?: unknown }): string {
	const target = options.url ?? options.uri;
	const url = typeof target === 'string' ? target.trim() : target instanceof URL ? target.href : '';
	const base = typeof options.baseURL === 'string' ? options.baseURL.trim() : '';
	if (base === '' || /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)) return url;
	return url === '' ? base : `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/**
 * Headers a request made with a credential may not set itself: where the request is routed (a
 * `Host` behind a CDN reaches another tenant with the key) and the authentication the credential adds.
 */
const CREDENTIAL_OWNED_HEADERS = new Set([
	'host',
	'authorization',
	'proxy-authorization',
	'cookie',
	'origin',
	'forwarded',
	'x-forwarded-host',
	'x-forwarded-server',
	'x-forwarded-proto',
	'x-host',
	'x-original-url',
	'x-rewrite-url',
	'x-http-host-override',
]);

/**
 * Refuses a request that sets a header the credential owns (any letter case), before the key is
 * added. `Authorization` spelled exactly so is the credential's own (n8n repeats a request after a
 * token renewal with the header it added): it is replaced, never sent beside another.
 */
export function assertNoOwnedHeaders(headers: unknown, credentialName: string): void {
	if (typeof headers !== 'object' || headers === null) return;
	const owned = Object.keys(headers).filter(
		(name) => name !== 'Authorization' && CREDENTIAL_OWNED_HEADERS.has(name.toLowerCase()),
	);
	if (owned.length === 0) return;
	throw new ProtocolError(
		`${credentialName}: refused to add its key to a request that sets ${owned.map((h) => `"${h}"`).join(', ')} itself; ` +
			'the credential decides where its key goes and how it authenticates. Remove that header from the request.',
		{ reason: 'credential_header_overridden' },
	);
}
