/** What the two Orchestration key credentials share: the base URL field and the bearer key (§5). */
import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { KEY_PREFIXES, keyTypeOf } from '../nodes/shared/orchestration/keyType';
import {
	assertNoOwnedHeaders,
	assertSecureUrl,
	baseUrlOf,
	insecureUrlReason,
	isUnderBase,
	REDIRECT_STATUSES,
	redirectRefusal,
	requestUrlOf,
} from '../nodes/shared/secureUrl';

export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.example.com',
	description:
		'Address of the orchestration service, without a path. A trailing slash is fine. Must be https:// (http:// only for localhost, 127.0.0.0/8 or ::1, e.g. the sandbox). The key is sent only to requests under this URL: an HTTP Request node using this credential for another address fails.',
};

/** The partner key (§5), masked; its prefix is the placeholder. */
export function apiKeyProperty(prefix: string, description: string): INodeProperties {
	return {
		displayName: 'API Key',
		name: 'apiKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		placeholder: `${prefix}...`,
		description,
	};
}

/**
 * Whether Order > Get Status may follow an order on the event stream, which takes the key in its URL's
 * query (orchestration-service.md §5). Absent in credentials stored before it existed: on.
 */
export const allowEventStreamProperty: INodeProperties = {
	displayName: 'Allow Event Stream',
	name: 'allowEventStream',
	type: 'boolean',
	default: true,
	description:
		"Whether Order > Get Status's wait may follow orders on the service's event stream. The service takes the API key in the stream URL's query (?token=...), where proxies and access logs on the way may record it. Off: waits always poll the status, and the key travels only in the Authorization header.",
};

/** The credential test's base URL, without trailing slashes. */
export const TEST_BASE_URL = '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}';

/**
 * The credential test's request never follows a redirect (n8n would follow it and, by default,
 * send the key along to another origin); a redirect fails the test with redirectRules' message.
 */
export const NO_REDIRECTS = {
	disableFollowRedirect: true,
	sendCredentialsOnCrossOriginRedirect: false,
} as const;

/** One rule per redirect status: the test fails naming the Base URL's redirect. */
export function redirectRules(field = 'Base URL'): IAuthenticateRuleResponseCode[] {
	return REDIRECT_STATUSES.map((value) => ({
		type: 'responseCode',
		properties: { value, message: redirectRefusal(field) },
	}));
}

/** Where a request may go: `scheme://host[:port]` only, never its path or query (they may carry data). */
function hostOf(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}`;
	} catch {
		return url === '' ? 'no URL' : 'an address that is not a URL';
	}
}

/**
 * n8n lets any HTTP Request node (or an agent's HTTP tool) use this credential type, with
 * any URL. The key goes only to a request under the credential's own Base URL (same scheme, host,
 * port, path prefix) that passes the https-or-loopback rule; any other request fails here, before it
 * is sent, naming the credential and the refused host.
 */
function assertOwnService(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	credentialName: string,
): void {
	const base = baseUrlOf(credentials.baseUrl);
	const target = requestUrlOf(requestOptions as IHttpRequestOptions & { uri?: unknown });
	if (isUnderBase(target, base) && insecureUrlReason(target) === undefined) return;
	throw new Error(
		`${credentialName}: refused to send its key to ${hostOf(target)}: this credential authenticates only requests under its "Base URL" (${base}). Use another credential (or none) for other services.`,
	);
}

/**
 * Adds `Authorization: Bearer <key>` and any extra headers. Refused before anything is sent: a base
 * URL that is not https (loopback excepted), a request that does not go under that base URL, and a
 * key of the wrong kind; so the key never travels in clear nor to another service.
 */
export function withBearerKey(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	kind: 'server' | 'client',
	extraHeaders: Record<string, string> = {},
): IHttpRequestOptions {
	const credentialName =
		kind === 'server'
			? 'Orchestration Server Key credential'
			: 'Orchestration Client Key credential';
	assertSecureUrl(credentials.baseUrl, credentialName, 'Base URL');
	assertOwnService(credentials, requestOptions, credentialName);
	assertNoOwnedHeaders(requestOptions.headers, credentialName);
	const apiKey = String(credentials.apiKey ?? '').trim();
	const keyType = keyTypeOf(apiKey);
	if (keyType !== kind) {
		const other = keyType === 'client' ? 'Client' : 'Server';
		throw new Error(
			`The "API Key" of the ${credentialName} must start with "${KEY_PREFIXES[kind]}" (a ${kind} key)${
				keyType === undefined
					? ''
					: `; this is a ${keyType} key: use the Orchestration ${other} Key credential`
			}`,
		);
	}
	return {
		...requestOptions,
		headers: {
			...(requestOptions.headers ?? {}),
			Authorization: `Bearer ${apiKey}`,
			...extraHeaders,
		},
	};
}
