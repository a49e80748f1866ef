/**
 * What the gateway's operations share: the signer of the credential (never echoed), Network Info
 * (§2.3a) with the 60-second client cache §4 allows, an intent's status (§2.3, §3) with the parsed
 * reason of an EXPIRED intent, and how the core's fields are named in this node's errors.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';
import { inField, ProtocolError } from '../../shared/errors';
import { pathSegment } from '../../shared/inputs';
import { parsePrivateKey, publicKeyFromPrivateKey } from '../../shared/gateway/keys';
import {
	IntentStatusSchema,
	NetworkInfoSchema,
	normalizeIntentStatus,
	statusReasonOf,
	type NetworkInfo,
} from '../../shared/gateway/responses';
import { ServiceError, type FieldNaming } from '../../n8n/errors';
import { ExpiringCache } from '../../n8n/expiringCache';
import { joinUrl } from '../../shared/secureUrl';
import { CREDENTIAL_TYPE, credentialError, gatewayApiRequest, gatewayUrlOf } from '../transport';

export interface GatewaySigner {
	gatewayUrl: string;
	privateKey: Uint8Array;
	/** 33-byte compressed hex, the identity the bearer token stands for (§2.1, §5). */
	publicKey: string;
}

export async function signerOf(ctx: IExecuteFunctions, itemIndex: number): Promise<GatewaySigner> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	let privateKey: Uint8Array;
	try {
		privateKey = parsePrivateKey(
			typeof credentials.privateKey === 'string' ? credentials.privateKey : '',
			'privateKey',
		);
	} catch (error) {
		// ProtocolError messages describe the problem (length, characters) without the value.
		const reason =
			error instanceof ProtocolError
				? error.message
				: 'privateKey is not a valid secp256k1 private key';
		throw credentialError(
			ctx,
			itemIndex,
			`"Private Key" is invalid: ${reason}`,
			'paste the 32-byte private key as 64 hex characters (0x optional)',
		);
	}
	return {
		gatewayUrl: await gatewayUrlOf(ctx, itemIndex),
		privateKey,
		publicKey: publicKeyFromPrivateKey(privateKey),
	};
}

/** §4 / §8: network info client cache, 60 seconds. */
export const NETWORK_INFO_TTL_MS = 60_000;

const cache = new ExpiringCache<NetworkInfo>(NETWORK_INFO_TTL_MS);

/** Forgets every cached network info (tests, or after a suspected re-key). */
export function clearNetworkInfoCache(): void {
	cache.clear();
}

async function fetchNetworkInfo(
	ctx: IExecuteFunctions,
	itemIndex: number,
	forceRefresh: boolean,
): Promise<NetworkInfo> {
	// §4: `forceRefresh=1` asks the gateway to bypass its own cache too.
	const res = await gatewayApiRequest.call(ctx, 'GET', '/api/v1/network/info', undefined, {
		itemIndex,
		qs: forceRefresh ? { forceRefresh: '1' } : undefined,
	});
	return answerOf(
		ctx,
		itemIndex,
		NetworkInfoSchema,
		res.body,
		'network info is not the §2.3a shape',
	);
}

/** The gateway's answer as `schema` reads it, or a ServiceError naming the first problem: "The gateway's <what> (<path>: <issue>)". */
function answerOf<Output, Input>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	schema: ZodType<Output, ZodTypeDef, Input>,
	body: unknown,
	what: string,
): Output {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	throw answerError(
		ctx,
		itemIndex,
		`The gateway's ${what} (${issue.path.join('.') || 'body'}: ${issue.message})`,
	);
}

/** An answer of the gateway the node cannot use (not the spec's shape), as n8n's API error of this item. */
export function answerError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
): ServiceError {
	return new ServiceError(ctx.getNode(), { message }, { message, itemIndex });
}

/** Drops the cached info of one gateway, after the gateway contradicted it (chain, pause, minimum). */
export function forgetNetworkInfo(gatewayUrl: string): void {
	cache.forget(joinUrl(gatewayUrl, ''));
}

/** Network info of the credential's gateway: cached for 60 s per gateway URL unless `forceRefresh`, which also refreshes the cache. */
export async function getNetworkInfo(
	ctx: IExecuteFunctions,
	itemIndex: number,
	forceRefresh = false,
): Promise<NetworkInfo> {
	const key = await gatewayUrlOf(ctx, itemIndex);
	return await cache.get(
		key,
		async () => await fetchNetworkInfo(ctx, itemIndex, forceRefresh),
		forceRefresh,
	);
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
	errorCode: (field, reason) =>
		reason !== undefined && ADMISSION_REASONS.has(reason) ? reason : codeForField(field),
};

/** §2.3 fields (unknown ones passed through) plus `statusReason` for an EXPIRED intent. */
function intentStatusOutput(ctx: IExecuteFunctions, itemIndex: number, body: unknown): IDataObject {
	const status = answerOf(
		ctx,
		itemIndex,
		IntentStatusSchema,
		body,
		'intent status is not the §2.3 shape',
	);
	// The spec's spelling in the output, whatever case the gateway answers in.
	const out: IDataObject = {
		...(status as IDataObject),
		status: normalizeIntentStatus(status.status) as string,
	};
	if (out.status === 'EXPIRED')
		out.statusReason = statusReasonOf(status.statusMessage) as IDataObject | null;
	return out;
}

export async function fetchIntent(
	ctx: IExecuteFunctions,
	itemIndex: number,
	submissionId: string,
): Promise<IDataObject> {
	const path = `/api/v1/intents/${inField('submissionId', () => pathSegment(submissionId))}`;
	return intentStatusOutput(
		ctx,
		itemIndex,
		(await gatewayApiRequest.call(ctx, 'GET', path, undefined, { itemIndex })).body,
	);
}
