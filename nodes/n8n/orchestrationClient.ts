/**
 * The Orchestration service's one door, shared by the Orchestration node and its trigger: the
 * credential checked before any request (orchestration-service.md §5), every request through the one
 * transport with this service's error hints (§7, public-notes.md), and the routes listing (§4.3)
 * fetched once per credential and cached.
 */
import type { ICredentialsDecrypted, IDataObject, IExecuteFunctions, IHttpRequestMethods, ILoadOptionsFunctions } from 'n8n-workflow';
import { keyTypeOf, KEY_PREFIXES, type KeyType } from '../shared/orchestration/keyType';
import { RoutesCatalogue } from '../shared/orchestration/routesCatalogue';
import { endpointOf } from '../shared/endpoints';
import { baseUrlOf, joinUrl } from '../shared/secureUrl';
import { sha256Hex } from '../shared/sha256';
import { ItemError } from './errors';
import { ExpiringCache } from './expiringCache';
import type { ItemReader } from './items';
import type { ExecutionPacing } from './pacing';
import { callService, type RequestContext, type ServiceResponse } from './transport';

// ---------------------------------------------------------------- hints

/** Hints shown next to the service's own error codes (orchestration-service.md §7, public-notes.md). */
export const ORCHESTRATION_HINTS: Record<string, string> = {
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
	quote_expired: 'The quote is older than 2 minutes. Create a new quote.',
	unsupported_route: 'This source and destination pair is not routable. Check the Routes listing.',
	unsupported_amount_mode: 'This route does not support the chosen amount mode.',
	not_found: 'Nothing with this identifier exists for this partner.',
};

// ---------------------------------------------------------------- the credential

export type Authentication = 'serverKey' | 'clientKey';

export const SERVER_CREDENTIAL = 'orchestrationServerApi';
export const CLIENT_CREDENTIAL = 'orchestrationClientApi';

/** Key prefixes of orchestration-service.md §5. */
const KEY_TYPES: Record<Authentication, KeyType> = { serverKey: 'server', clientKey: 'client' };
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
	/** The node run's pacing by the service's rate limits (set by the router). */
	pacing?: ExecutionPacing;
	/** The credential read once for the node run, handed to n8n with every request (no database read per item). */
	credentials?: ICredentialsDecrypted;
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
	const baseUrl = baseUrlOf(creds.baseUrl);
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new ItemError(ctx.getNode(), `The "Base URL" of the ${name} credential must be an http(s) address`, {
			description: 'For example https://api.example.com (without a path).',
		});
	}
	const apiKey = String(creds.apiKey ?? '').trim();
	const keyType = keyTypeOf(apiKey);
	if (keyType !== KEY_TYPES[authentication]) {
		const prefix = KEY_PREFIXES[KEY_TYPES[authentication]];
		const other = keyType !== undefined;
		throw new ItemError(ctx.getNode(), `The "API Key" of the ${name} credential must start with "${prefix}"`, {
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
		keyFingerprint: sha256Hex(apiKey).slice(0, 16),
		credentials: { id: ctx.getNode().credentials?.[credentialType]?.id ?? '', name: ctx.getNode().credentials?.[credentialType]?.name ?? name, type: credentialType, data: creds },
	};
}

// ---------------------------------------------------------------- requests

export interface OrchestrationCall {
	method: IHttpRequestMethods;
	/** Path under the base URL, e.g. /v1/orchestration/quote. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	headers?: Record<string, string>;
	/** Mutating calls send it on every attempt (orchestration-service.md §4). */
	idempotencyKey?: string;
	itemIndex?: number;
	/** The client-key scope the operation needs (§5), named in the scope_required hint. */
	requiredScope?: string;
	/** Further secrets to keep out of errors (read tokens). */
	secrets?: Array<string | undefined>;
	/** Hints for codes of this call only (e.g. instruction_conflict); they take precedence over ORCHESTRATION_HINTS. */
	hints?: Record<string, string>;
}

/** Where a call goes: the credential and its base URL; a node run adds its key's handle, pacing and the credential read once. */
export type ServiceTarget = Pick<ServiceAccess, 'credentialType' | 'baseUrl'> & Partial<Omit<ServiceAccess, 'credentialType' | 'baseUrl'>>;

/** The one way to the service, for the node and the trigger: the shared transport with this credential, its base URL, key kind and hints. */
export async function orchestrationRequest<T = unknown>(
	ctx: RequestContext,
	access: ServiceTarget,
	call: OrchestrationCall,
): Promise<ServiceResponse<T>> {
	return (await callService.call(ctx, {
		credentialType: access.credentialType,
		method: call.method,
		url: joinUrl(access.baseUrl, call.path),
		qs: call.qs,
		body: call.body,
		headers: call.headers,
		idempotencyKey: call.idempotencyKey,
		itemIndex: call.itemIndex,
		requiredScope: access.isClientKey ? call.requiredScope : undefined,
		secrets: call.secrets,
		hints: call.hints ? { ...ORCHESTRATION_HINTS, ...call.hints } : ORCHESTRATION_HINTS,
		credentials: access.credentials,
		// One pacer per credential and endpoint (public-notes: limits per key, per key+IP, per endpoint), never per order or affiliate.
		pacing: access.pacing?.forCall(`${access.baseUrl}|${access.credentialType}|${access.keyFingerprint}|${endpointOf(call.method, call.path)}`, call.itemIndex),
	})) as ServiceResponse<T>;
}

// ---------------------------------------------------------------- the routes catalogue

export const ROUTES_PATH = '/v2/orchestration/routes';
export const ROUTES_TTL_MS = 60_000;

const cache = new ExpiringCache<RoutesCatalogue>(ROUTES_TTL_MS);

/** The routes catalogue for this credential (partner-aware, §4.3), from the cache when fresh. */
export async function getRoutesCatalogue(
	ctx: RequestContext,
	access: ServiceAccess,
	itemIndex?: number,
): Promise<RoutesCatalogue> {
	const key = `${access.baseUrl}|${access.credentialType}|${access.keyFingerprint}`;
	return await cache.get(key, async () => await fetchCatalogue(ctx, access, itemIndex));
}

async function fetchCatalogue(ctx: RequestContext, access: ServiceAccess, itemIndex?: number): Promise<RoutesCatalogue> {
	const res = await orchestrationRequest<{ assets?: unknown }>(ctx, access, {
		method: 'GET',
		path: ROUTES_PATH,
		itemIndex,
	});
	const assets = res.body?.assets;
	if (!Array.isArray(assets)) {
		throw new ItemError(ctx.getNode(), 'The routes listing has no "assets" array', {
			itemIndex,
			description: `GET ${ROUTES_PATH} answered without the { assets: [...] } body of the routes listing.`,
		});
	}
	return new RoutesCatalogue(assets);
}

/** Forgets every cached listing (tests and benchmarks; n8n itself relies on the 60 s expiry). */
export function clearRoutesCache(): void {
	cache.clear();
}

/**
 * The routes catalogue: required when a decimal amount must be converted, otherwise best effort
 * (it only adds the `...Formatted` output fields, and must never stop a valid request).
 */
export async function catalogueFor(read: ItemReader, access: ServiceAccess, required: true): Promise<RoutesCatalogue>;
export async function catalogueFor(read: ItemReader, access: ServiceAccess, required: boolean): Promise<RoutesCatalogue | undefined>;
export async function catalogueFor(read: ItemReader, access: ServiceAccess, required: boolean): Promise<RoutesCatalogue | undefined> {
	if (required) return await getRoutesCatalogue(read.ctx, access, read.itemIndex);
	try {
		return await getRoutesCatalogue(read.ctx, access, read.itemIndex);
	} catch {
		return undefined;
	}
}
