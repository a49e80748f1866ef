/** What the two Orchestration key credentials share: the base URL field and the bearer key (§5). */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { assertSecureUrl } from '../nodes/n8n/transport';

export const SERVER_PREFIX = 'fn_';
export const CLIENT_PREFIX = 'fnp_';

export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.example.com',
	description:
		'Address of the orchestration service, without a path. A trailing slash is fine. Must be https:// (http:// only for localhost, 127.0.0.0/8 or ::1, e.g. the sandbox).',
};

/** The credential test's base URL, without trailing slashes. */
export const TEST_BASE_URL = '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}';

/**
 * Adds `Authorization: Bearer <key>` and any extra headers. Refused before anything is sent: a key
 * of the wrong kind, and a base URL that is not https (loopback excepted), so the key never travels in clear.
 */
export function withBearerKey(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	kind: 'server' | 'client',
	extraHeaders: Record<string, string> = {},
): IHttpRequestOptions {
	const credentialName = kind === 'server' ? 'Orchestration Server Key credential' : 'Orchestration Client Key credential';
	assertSecureUrl(credentials.baseUrl, credentialName, 'Base URL');
	const apiKey = String(credentials.apiKey ?? '').trim();
	const isClient = apiKey.startsWith(CLIENT_PREFIX);
	const isServer = apiKey.startsWith(SERVER_PREFIX);
	if (kind === 'server' && !isServer) {
		throw new Error(
			`The "API Key" of the Orchestration Server Key credential must start with "${SERVER_PREFIX}" (a server key)${
				isClient ? '; this is a client key: use the Orchestration Client Key credential' : ''
			}`,
		);
	}
	if (kind === 'client' && !isClient) {
		throw new Error(
			`The "API Key" of the Orchestration Client Key credential must start with "${CLIENT_PREFIX}" (a client key)${
				apiKey.startsWith(SERVER_PREFIX) ? '; this is a server key: use the Orchestration Server Key credential' : ''
			}`,
		);
	}
	return {
		...requestOptions,
		headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${apiKey}`, ...extraHeaders },
	};
}
