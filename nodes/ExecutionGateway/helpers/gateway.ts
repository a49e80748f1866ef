/**
 * The node's gateway client: the credential (URL and signer key, never echoed), the bearer calls
 * (execute, intent lookup) with n8n's re-authentication after a 401, the public calls sent without
 * credentials (§4: Auth none, so discovery never depends on the key), and Network Info (§2.3a)
 * with the 60-second client cache §4 allows; intent status (§2.3, §3) by submission id with the
 * parsed reason of an EXPIRED intent. Waiting until a final state is intentWait.ts.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import type { ZodType, ZodTypeDef } from 'zod';
import { inField, ProtocolError } from '../shared/errors';
import { pathSegment } from '../shared/inputs';
import { parsePrivateKey, publicKeyFromPrivateKey } from '../shared/gateway/keys';
import {
	IntentStatusSchema,
	NetworkInfoSchema,
	normalizeIntentStatus,
	statusReasonOf,
	type NetworkInfo,
} from '../shared/gateway/responses';
import type { ItemReader } from '../n8n/items';
import { ItemError, ServiceError, type FieldNaming } from '../n8n/errors';
import { insecureUrlReason, joinUrl } from '../shared/secureUrl';
import { ExpiringCache } from '../n8n/expiringCache';
import { callService, type ServiceCall, type ServiceResponse } from '../n8n/transport';

export const CREDENTIAL_TYPE = 'executionGatewayApi';

/** Hints for the gateway's admission codes (execution-gateway.md §7, §8). */
export const GATEWAY_HINTS: Record<string, string> = {
	chain_id_mismatch: "The chain ID differs from the gateway's execution chain ID (Network Info).",
	invalid_expires_at: 'Expires At must be in the future and at most 24 hours ahead.',
	nonce_replayed: 'This nonce was already used by this key: the gateway admits each nonce once.',
	invalid_signature: 'The gateway could not verify the intent signature against this keypair.',
	transfer_already_claimed: 'A Spark transfer funds at most one intent; this one is claimed by another intent.',
	below_min_deposit: 'A BTC deposit is below the gateway minimum (minDepositSats in Network Info).',
	network_paused: 'The gateway network is paused; try again later.',
	invalid_action: 'Set exactly one of Recipient (deposit only) and EVM Transaction (deposit and execute).',
	invalid_evm_transaction: 'EVM Transaction must be the hex of a signed EIP-1559 (type 0x02) transaction.',
	invalid_transfer_id: 'Spark transfer ids are plain hex: 32 characters for BTC, 64 for tokens.',
	invalid_token_id: 'Token ids are 32 bytes: 64 plain hex characters.',
	invalid_amount: 'Amounts are unsigned 64-bit integers in base units, written as decimal digits.',
	invalid_asset: 'Asset Type is BTC or Token (a token deposit needs its Token ID).',
	invalid_recipient: 'Recipient must be an EVM address: 0x followed by 40 hex characters.',
	invalid_nonce: 'The nonce must be a non-empty string of at most 256 characters.',
	duplicate_transfer_id: 'Each Spark transfer may appear once in an intent.',
	token_expired: 'The access token expired and could not be renewed; test the credential.',
	not_found: 'No intent with this submission id exists for this keypair.',
};

/** Per node run: the first bearer call, which the others wait for (see authenticatedCall). */
const firstBearerCall = new WeakMap<IExecuteFunctions, Promise<void>>();

/**
 * A bearer call: n8n adds the token, renews it after a 401 (preAuthentication) and repeats once.
 * The first call of a node run goes alone, so items running in parallel share the token it
 * obtains instead of each running the challenge and verify round trip.
 */
export async function authenticatedCall<T>(
	read: ItemReader,
	call: { method: IHttpRequestMethods; url: string; body?: string; onAttempt?: ServiceCall['onAttempt']; hints?: Record<string, string> },
): Promise<ServiceResponse<T>> {
	const { ctx, itemIndex } = read;
	const send = async () =>
		(await callService.call(ctx, {
			credentialType: CREDENTIAL_TYPE,
			method: call.method,
			url: call.url,
			body: call.body,
			itemIndex,
			reauthenticateOn401: true,
			hints: call.hints ?? GATEWAY_HINTS,
			onAttempt: call.onAttempt,
		})) as ServiceResponse<T>;
	const first = firstBearerCall.get(ctx);
	if (first) {
		await first;
		return await send();
	}
	const result = send();
	firstBearerCall.set(
		ctx,
		result.then(
			() => undefined,
			() => undefined,
		),
	);
	return await result;
}

/** A GET without credentials through the shared transport (its retry budget, errors and hints). */
export async function publicGet<T>(read: ItemReader, url: string, qs?: IDataObject): Promise<T> {
	const res = await callService.call(read.ctx, { method: 'GET', url, qs, itemIndex: read.itemIndex, hints: GATEWAY_HINTS });
	return res.body as T;
}

export interface GatewaySigner {
	gatewayUrl: string;
	privateKey: Uint8Array;
	/** 33-byte compressed hex, the identity the bearer token stands for (§2.1, §5). */
	publicKey: string;
}

export async function signerOf(read: ItemReader): Promise<GatewaySigner> {
	const { ctx, itemIndex } = read;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	let privateKey: Uint8Array;
	try {
		privateKey = parsePrivateKey(typeof credentials.privateKey === 'string' ? credentials.privateKey : '', 'privateKey');
	} catch (error) {
		// ProtocolError messages describe the problem (length, characters) without the value.
		const reason = error instanceof ProtocolError ? error.message : 'privateKey is not a valid secp256k1 private key';
		throw credentialError(read, `"Private Key" is invalid: ${reason}`, 'paste the 32-byte private key as 64 hex characters (0x optional)');
	}
	return { gatewayUrl: secureGatewayUrl(read, credentials.gatewayUrl), privateKey, publicKey: publicKeyFromPrivateKey(privateKey) };
}

/** The credential's Gateway URL, refused before any request unless https (or loopback http). */
function secureGatewayUrl(read: ItemReader, url: unknown): string {
	const reason = insecureUrlReason(url);
	if (reason !== undefined) throw credentialError(read, `"Gateway URL" is refused: ${reason}`, 'use the https:// address of the gateway');
	return joinUrl(url, '');
}

/** A credential field refused before anything is sent: what is wrong (never the value) and how to fix it. */
function credentialError(read: ItemReader, problem: string, fix: string): ItemError {
	return new ItemError(read.ctx.getNode(), `The Execution Gateway credential's ${problem}`, {
		itemIndex: read.itemIndex,
		description: `Open the credential and ${fix}. Nothing was sent.`,
	});
}

/** Only the gateway URL: the public endpoints work even when the key is wrong. */
export async function gatewayUrlOf(read: ItemReader): Promise<string> {
	const credentials = await read.ctx.getCredentials(CREDENTIAL_TYPE, read.itemIndex);
	return secureGatewayUrl(read, credentials.gatewayUrl);
}

/** §4 / §8: network info client cache, 60 seconds. */
export const NETWORK_INFO_TTL_MS = 60_000;

const cache = new ExpiringCache<NetworkInfo>(NETWORK_INFO_TTL_MS);

/** Forgets every cached network info (tests, or after a suspected re-key). */
export function clearNetworkInfoCache(): void {
	cache.clear();
}

async function fetchNetworkInfo(read: ItemReader, gatewayUrl: string, forceRefresh: boolean): Promise<NetworkInfo> {
	// §4: `forceRefresh=1` asks the gateway to bypass its own cache too.
	const body = await publicGet<unknown>(read, joinUrl(gatewayUrl, '/api/v1/network/info'), forceRefresh ? { forceRefresh: '1' } : undefined);
	return answerOf(read, NetworkInfoSchema, body, 'network info is not the §2.3a shape');
}

/** The gateway's answer as `schema` reads it, or a ServiceError naming the first problem: "The gateway's <what> (<path>: <issue>)". */
function answerOf<Output, Input>(read: ItemReader, schema: ZodType<Output, ZodTypeDef, Input>, body: unknown, what: string): Output {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	throw answerError(read, `The gateway's ${what} (${issue.path.join('.') || 'body'}: ${issue.message})`);
}

/** An answer of the gateway the node cannot use (not the spec's shape), as n8n's API error of this item. */
export function answerError(read: ItemReader, message: string): ServiceError {
	return new ServiceError(read.ctx.getNode(), { message }, { message, itemIndex: read.itemIndex });
}

/** Drops the cached info of one gateway, after the gateway contradicted it (chain, pause, minimum). */
export function forgetNetworkInfo(gatewayUrl: string): void {
	cache.forget(joinUrl(gatewayUrl, ''));
}

/** Network info of `gatewayUrl`: cached for 60 s unless `forceRefresh`, which also refreshes the cache. */
export async function getNetworkInfo(read: ItemReader, gatewayUrl: string, forceRefresh = false): Promise<NetworkInfo> {
	const key = joinUrl(gatewayUrl, '');
	return await cache.get(key, async () => await fetchNetworkInfo(read, key, forceRefresh), forceRefresh);
}

/** The parameter-facing name of a core field path (`deposits[0].asset.tokenId` -> `deposits[0].tokenId`). */
function displayField(field: string): string {
	return field.replace(/\.asset\.tokenId$/, '.tokenId').replace(/\.asset\.type$/, '.assetType');
}

/** The admission code the gateway would answer for the same mistake. */
function codeForField(field: string): string {
	if (field.endsWith('sparkTransferId')) return 'invalid_transfer_id';
	if (field.endsWith('tokenId')) return 'invalid_token_id';
	if (field.endsWith('amount')) return 'invalid_amount';
	if (field.endsWith('asset.type') || field.endsWith('assetType')) return 'invalid_asset';
	const byField: Record<string, string> = {
		evmTransaction: 'invalid_evm_transaction',
		action: 'invalid_action',
		recipient: 'invalid_recipient',
		expiresAt: 'invalid_expires_at',
		chainId: 'invalid_chain_id',
		nonce: 'invalid_nonce',
		deposits: 'invalid_deposits',
	};
	return byField[field] ?? 'invalid_input';
}

/** Reasons of the core that are the gateway's own codes for the same mistake (admission, and the item's reading in intentInput.ts). */
const ADMISSION_REASONS = new Set([
	'duplicate_transfer_id',
	'chain_id_mismatch',
	'below_min_deposit',
	'invalid_action',
	'invalid_amount',
	'invalid_deposits',
	'invalid_expires_at',
]);

/** The gateway's naming of core fields: parameter names and the admission code for each. */
export const GATEWAY_FIELDS: FieldNaming = {
	field: displayField,
	errorCode: (field, reason) => (reason !== undefined && ADMISSION_REASONS.has(reason) ? reason : codeForField(field)),
};

/** §2.3 fields (unknown ones passed through) plus `statusReason` for an EXPIRED intent. */
function intentStatusOutput(read: ItemReader, body: unknown): IDataObject {
	const status = answerOf(read, IntentStatusSchema, body, 'intent status is not the §2.3 shape');
	// The spec's spelling in the output, whatever case the gateway answers in.
	const out: IDataObject = { ...(status as IDataObject), status: normalizeIntentStatus(status.status) as string };
	if (out.status === 'EXPIRED') out.statusReason = statusReasonOf(status.statusMessage) as IDataObject | null;
	return out;
}

export async function fetchIntent(read: ItemReader, gatewayUrl: string, submissionId: string): Promise<IDataObject> {
	const url = joinUrl(gatewayUrl, `/api/v1/intents/${inField('submissionId', () => pathSegment(submissionId))}`);
	return intentStatusOutput(read, (await authenticatedCall<unknown>(read, { method: 'GET', url })).body);
}
