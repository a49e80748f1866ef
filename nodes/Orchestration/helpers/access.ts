/** Which credential the node uses and what it needs from it: base URL, key kind, a cache handle. */
import { createHash } from 'node:crypto';
import {
	NodeOperationError,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
} from 'n8n-workflow';

export type Authentication = 'serverKey' | 'clientKey';

export const SERVER_CREDENTIAL = 'orchestrationServerApi';
export const CLIENT_CREDENTIAL = 'orchestrationClientApi';

/** Key prefixes of orchestration-service.md §5. */
const PREFIXES: Record<Authentication, string> = { serverKey: 'fn_', clientKey: 'fnp_' };
const CREDENTIAL_NAMES: Record<Authentication, string> = {
	serverKey: 'Orchestration Server Key',
	clientKey: 'Orchestration Client Key',
};

export interface ServiceAccess {
	authentication: Authentication;
	credentialType: string;
	/** Base URL without trailing slashes. */
	baseUrl: string;
	isClientKey: boolean;
	/** A non-secret handle of the key (hash prefix): partner-aware caches key on it. */
	keyFingerprint: string;
}

export function credentialTypeFor(authentication: Authentication): string {
	return authentication === 'clientKey' ? CLIENT_CREDENTIAL : SERVER_CREDENTIAL;
}

export function asAuthentication(value: unknown): Authentication {
	return value === 'clientKey' ? 'clientKey' : 'serverKey';
}

/**
 * Reads the credential and checks it before any request: a base URL, and a key of the kind the
 * credential is for (fn_ server, fnp_ client). The key itself never appears in a message.
 */
export async function serviceAccess(
	ctx: IExecuteFunctions | ILoadOptionsFunctions,
	authentication: Authentication,
): Promise<ServiceAccess> {
	const credentialType = credentialTypeFor(authentication);
	const creds = await ctx.getCredentials(credentialType);
	const name = CREDENTIAL_NAMES[authentication];
	const baseUrl = String(creds.baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new NodeOperationError(ctx.getNode(), `The "Base URL" of the ${name} credential must be an http(s) address`, {
			description: 'For example https://api.example.com (without a path).',
		});
	}
	const apiKey = String(creds.apiKey ?? '').trim();
	const prefix = PREFIXES[authentication];
	if (!apiKey.startsWith(prefix)) {
		const other = authentication === 'serverKey' ? apiKey.startsWith('fnp_') : apiKey.startsWith('fn_');
		throw new NodeOperationError(ctx.getNode(), `The "API Key" of the ${name} credential must start with "${prefix}"`, {
			description: other
				? `This looks like a ${authentication === 'serverKey' ? 'client' : 'server'} key. Switch "Authentication" or use the other credential.`
				: `${authentication === 'serverKey' ? 'Server' : 'Client'} keys start with ${prefix}. Nothing was sent to the service.`,
		});
	}
	return {
		authentication,
		credentialType,
		baseUrl,
		isClientKey: authentication === 'clientKey',
		keyFingerprint: createHash('sha256').update(apiKey).digest('hex').slice(0, 16),
	};
}
