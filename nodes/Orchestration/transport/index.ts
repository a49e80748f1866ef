/**
 * The orchestration service's request function, for the Orchestration node and its trigger: the
 * credential checked before any request (orchestration-service.md §5), the endpoint's row
 * (endpoints.ts), this service's error hints (§7, public-notes), and the node run's pacing.
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
} from 'n8n-workflow';
import { keyTypeOf, KEY_PREFIXES, type KeyType } from '../../shared/orchestration/keyType';
import { baseUrlOf, joinUrl } from '../../shared/secureUrl';
import { sha256Hex } from '../../shared/sha256';
import { ItemError } from '../../n8n/errors';
import { executionPacing } from '../../n8n/pacing';
import { apiRequest, type ApiResponse, type RequestContext } from '../../n8n/transport';
import { endpointKey, endpointOf, type Endpoint } from './endpoints';

/** Hints shown next to the service's own error codes (§7, public-notes). */
export const ORCHESTRATION_HINTS: Record<string, string> = {
	scope_required:
		'The client key lacks a scope this operation needs. Add the scope to the key in the partner dashboard, or use a server key.',
	forbidden:
		'No client key can call this endpoint. Use the Orchestration Server Key credential (fn_...).',
	origin_required:
		'This browser-mode client key needs an Origin. Set "Origin" in the Orchestration Client Key credential.',
	origin_not_allowed:
		"The credential's Origin is not in the key's allowed origins. Fix the Origin or the key's allowed origins.",
	read_token_required:
		'Client-key reads need the read token returned by the quote, submit or onramp step. Pass it in "Read Token".',
	invalid_read_token:
		'The read token expired (24 h) or belongs to another key, partner or identifier. Use the token from the step that created this quote or order.',
	client_key_fee_fields_forbidden:
		'Client keys cannot send fee fields (app fees, affiliate overrides). Remove them or use a server key.',
	turnstile_required: 'Browser verification is on for this key: send the verification token.',
	turnstile_failed: 'The browser verification token was rejected.',
	calldata_unsupported_source:
		'Calldata is only available for EVM native and ERC-20 sources. Turn off "Include Calldata".',
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

export type Authentication = 'serverKey' | 'clientKey';

export const SERVER_CREDENTIAL = 'orchestrationServerApi';
export const CLIENT_CREDENTIAL = 'orchestrationClientApi';

const KEY_TYPES: Record<Authentication, KeyType> = { serverKey: 'server', clientKey: 'client' };
const CREDENTIAL_NAMES: Record<Authentication, string> = {
	serverKey: 'Orchestration Server Key',
	clientKey: 'Orchestration Client Key',
};

/** The credential of a node run, checked and read once. */
export interface ServiceAccess {
	credentialType: string;
	/** Base URL without trailing slashes. */
	baseUrl: string;
	isClientKey: boolean;
	/** A non-secret handle of the key (hash prefix): partner-aware caches and pacers key on it. */
	keyFingerprint: string;
	/** Handed to n8n with every request: no database read per item. */
	credentials: ICredentialsDecrypted;
}

export function asAuthentication(value: unknown): Authentication {
	return value === 'clientKey' ? 'clientKey' : 'serverKey';
}

/** The Authentication parameter where the context has one (the trigger always uses the server key). */
function authenticationOf(ctx: RequestContext): Authentication {
	if ('getCurrentNodeParameter' in ctx && typeof ctx.getCurrentNodeParameter === 'function')
		return asAuthentication(ctx.getCurrentNodeParameter('authentication'));
	return asAuthentication(ctx.getNode().parameters?.authentication);
}

/**
 * Reads the credential and checks it before any request: a base URL, and a key of the kind the
 * credential is for (fn_ server, fnp_ client). The key itself never appears in a message.
 */
async function readAccess(
	ctx: RequestContext,
	authentication: Authentication,
): Promise<ServiceAccess> {
	const credentialType = authentication === 'clientKey' ? CLIENT_CREDENTIAL : SERVER_CREDENTIAL;
	const creds = await ctx.getCredentials(credentialType);
	const name = CREDENTIAL_NAMES[authentication];
	const baseUrl = baseUrlOf(creds.baseUrl);
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		throw new ItemError(
			ctx.getNode(),
			`The "Base URL" of the ${name} credential must be an http(s) address`,
			{ description: 'For example https://api.example.com (without a path).' },
		);
	}
	const apiKey = String(creds.apiKey ?? '').trim();
	const keyType = keyTypeOf(apiKey);
	if (keyType !== KEY_TYPES[authentication]) {
		const prefix = KEY_PREFIXES[KEY_TYPES[authentication]];
		throw new ItemError(
			ctx.getNode(),
			`The "API Key" of the ${name} credential must start with "${prefix}"`,
			{
				description:
					keyType !== undefined
						? `This looks like a ${authentication === 'serverKey' ? 'client' : 'server'} key. Switch "Authentication" or use the other credential.`
						: `${authentication === 'serverKey' ? 'Server' : 'Client'} keys start with ${prefix}. Nothing was sent to the service.`,
			},
		);
	}
	const stored = ctx.getNode().credentials?.[credentialType];
	return {
		credentialType,
		baseUrl,
		isClientKey: authentication === 'clientKey',
		keyFingerprint: sha256Hex(apiKey).slice(0, 16),
		credentials: {
			id: stored?.id ?? '',
			name: stored?.name ?? name,
			type: credentialType,
			data: creds,
		},
	};
}

const accessByRun = new WeakMap<object, Promise<ServiceAccess>>();

/** The run's credential, read and checked on first use (a node run, a dropdown's load, a trigger's hook). */
export async function serviceAccess(
	ctx: RequestContext,
	authentication = authenticationOf(ctx),
): Promise<ServiceAccess> {
	let access = accessByRun.get(ctx);
	if (access === undefined) {
		access = readAccess(ctx, authentication);
		accessByRun.set(ctx, access);
		access.catch(() => accessByRun.delete(ctx));
	}
	return await access;
}

export interface OrchestrationRequestOptions {
	qs?: IDataObject;
	headers?: Record<string, string>;
	/** Required by a row with `action` (§4): the same key on every attempt. */
	idempotencyKey?: string;
	itemIndex?: number;
	/** Further secrets to keep out of errors (read tokens). */
	secrets?: Array<string | undefined>;
	/** Hints for codes of this call only; they take precedence over ORCHESTRATION_HINTS. */
	hints?: Record<string, string>;
	/** The row of a path the user set ("Request Path"): its key, e.g. "PATCH /v1/standing-deposit-addresses/{ref}/enabled". */
	endpoint?: string;
	/** Another base URL than the credential's (the trigger deletes where it registered). */
	baseUrl?: string;
}

function rowOf(method: IHttpRequestMethods, path: string, named: string | undefined): Endpoint {
	const row =
		named === undefined
			? endpointOf(method, path)
			: endpointOf(method, named.slice(named.indexOf(' ') + 1));
	if (row === undefined)
		throw new Error(
			`${method} ${path} is not in the endpoint table (nodes/Orchestration/transport/endpoints.ts)`,
		);
	return row;
}

/** One request to the orchestration service: `path` under the credential's base URL, `body` as JSON. */
export async function orchestrationApiRequest(
	this: RequestContext,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
	options: OrchestrationRequestOptions = {},
): Promise<ApiResponse<IDataObject>> {
	const row = rowOf(method, path, options.endpoint);
	if (row.action && options.idempotencyKey === undefined)
		throw new Error(`${endpointKey(row)} needs an idempotency key`);
	const access = await serviceAccess(this);
	const baseUrl = options.baseUrl ?? access.baseUrl;
	const pacing = 'getInputData' in this ? executionPacing(this as IExecuteFunctions) : undefined;
	return (await apiRequest.call(this, {
		credentialType: access.credentialType,
		credentials: access.credentials,
		method,
		url: joinUrl(baseUrl, path),
		qs: options.qs,
		body,
		headers: options.headers,
		idempotencyKey: options.idempotencyKey,
		itemIndex: options.itemIndex,
		requiredScope: access.isClientKey ? row.scope : undefined,
		secrets: options.secrets,
		hints: options.hints ? { ...ORCHESTRATION_HINTS, ...options.hints } : ORCHESTRATION_HINTS,
		toolAction: row.action,
		// One pacer per credential and endpoint (public-notes: limits per key and endpoint), never per order.
		pacing: pacing?.forCall(
			`${baseUrl}|${access.credentialType}|${access.keyFingerprint}|${endpointKey(row)}`,
			options.itemIndex,
		),
	})) as ApiResponse<IDataObject>;
}
