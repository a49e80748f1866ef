/**
 * Where keys and tokens may be sent: https only, plain http only to this machine (loopback: the
 * sandbox). Pure: no n8n, no network; used by the credentials and by the nodes before any request.
 */

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
	if (reason !== undefined) throw new Error(`${credential}: "${field}" is refused: ${reason}`);
}

/** A base URL as credentials store it: trimmed, without trailing slashes. */
export function baseUrlOf(url: unknown): string {
	return String(url ?? '').trim().replace(/\/+$/, '');
}

/** Whether `requestUrl` is `base` itself or lies under it (an exact origin and path prefix, no look-alike host). */
export function isUnderBase(requestUrl: string, base: string): boolean {
	return base !== '' && (requestUrl === base || requestUrl.startsWith(`${base}/`) || requestUrl.startsWith(`${base}?`));
}
