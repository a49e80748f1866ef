/**
 * The execution gateway's request function: bearer calls with the credential's access token (n8n
 * renews it after a 401 through the credential's preAuthentication, §5), public calls without
 * credentials (§4: Auth none, so discovery never depends on the key), this gateway's error hints.
 */
import type { IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { insecureUrlReason, joinUrl } from '../../shared/secureUrl';
import { ItemError } from '../../n8n/errors';
import { apiRequest, type ApiResponse, type AttemptOutcome } from '../../n8n/transport';

export const CREDENTIAL_TYPE = 'executionGatewayApi';

/** Every endpoint of the gateway the node calls (execution-gateway.md §4); the credential calls /api/v1/auth/* itself. */
export const ENDPOINTS = [
	{ method: 'POST', path: '/api/v1/execute', auth: 'bearer', action: true },
	{ method: 'GET', path: '/api/v1/intents/{submissionId}', auth: 'bearer' },
	{ method: 'GET', path: '/api/v1/network/info', auth: 'public' },
	{ method: 'GET', path: '/api/v1/health', auth: 'public' },
] as const satisfies ReadonlyArray<{
	method: IHttpRequestMethods;
	path: string;
	auth: 'bearer' | 'public';
	action?: true;
}>;

type Endpoint = (typeof ENDPOINTS)[number];

/** Hints for the gateway's admission codes (§7, §8). */
export const GATEWAY_HINTS: Record<string, string> = {
	chain_id_mismatch: "The chain ID differs from the gateway's execution chain ID (Network Info).",
	invalid_expires_at: 'Expires At must be in the future and at most 24 hours ahead.',
	nonce_replayed: 'This nonce was already used by this key: the gateway admits each nonce once.',
	invalid_signature: 'The gateway could not verify the intent signature against this keypair.',
	transfer_already_claimed:
		'A Spark transfer funds at most one intent; this one is claimed by another intent.',
	below_min_deposit: 'A BTC deposit is below the gateway minimum (minDepositSats in Network Info).',
	network_paused: 'The gateway network is paused; try again later.',
	invalid_action:
		'Set exactly one of Recipient (deposit only) and EVM Transaction (deposit and execute).',
	invalid_evm_transaction:
		'EVM Transaction must be the hex of a signed EIP-1559 (type 0x02) transaction.',
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

/** A credential field refused before anything is sent: what is wrong (never the value) and how to fix it. */
export function credentialError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problem: string,
	fix: string,
): ItemError {
	return new ItemError(ctx.getNode(), `The Execution Gateway credential's ${problem}`, {
		itemIndex,
		description: `Open the credential and ${fix}. Nothing was sent.`,
	});
}

const gatewayUrls = new WeakMap<IExecuteFunctions, string>();

/** The credential's Gateway URL (read once per node run), refused before any request unless https (or loopback http). */
export async function gatewayUrlOf(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const known = gatewayUrls.get(ctx);
	if (known !== undefined) return known;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const reason = insecureUrlReason(credentials.gatewayUrl);
	if (reason !== undefined)
		throw credentialError(
			ctx,
			itemIndex,
			`"Gateway URL" is refused: ${reason}`,
			'use the https:// address of the gateway',
		);
	const url = joinUrl(credentials.gatewayUrl, '');
	gatewayUrls.set(ctx, url);
	return url;
}

/** Per node run: the first bearer call, which the others wait for. */
const firstBearerCall = new WeakMap<IExecuteFunctions, Promise<void>>();

export interface GatewayRequestOptions {
	qs?: Record<string, string>;
	itemIndex: number;
	hints?: Record<string, string>;
	onAttempt?: (outcome: AttemptOutcome) => void;
}

function rowOf(method: IHttpRequestMethods, path: string): Endpoint {
	const row = ENDPOINTS.find(
		(e) =>
			e.method === method &&
			(e.path === path ||
				(e.path.includes('{') && path.startsWith(e.path.slice(0, e.path.indexOf('{'))))),
	);
	if (row === undefined)
		throw new Error(`${method} ${path} is not in the gateway's endpoint table`);
	return row;
}

/**
 * One request to the gateway under the credential's URL; `body` is already-serialized JSON (exact
 * u64 digits). The first bearer call of a node run goes alone, so items in parallel share the token
 * it obtains instead of each running the challenge and verify round trip.
 */
export async function gatewayApiRequest(
	this: IExecuteFunctions,
	method: IHttpRequestMethods,
	path: string,
	body: string | undefined,
	options: GatewayRequestOptions,
): Promise<ApiResponse> {
	const row = rowOf(method, path);
	const url = joinUrl(await gatewayUrlOf(this, options.itemIndex), path);
	const bearer = row.auth === 'bearer';
	const send = async () =>
		await apiRequest.call(this, {
			...(bearer ? { credentialType: CREDENTIAL_TYPE, reauthenticateOn401: true } : {}),
			method,
			url,
			qs: options.qs,
			body,
			itemIndex: options.itemIndex,
			hints: options.hints ?? GATEWAY_HINTS,
			toolAction: 'action' in row,
			onAttempt: options.onAttempt,
		});
	if (!bearer) return await send();
	const first = firstBearerCall.get(this);
	if (first) {
		await first;
		return await send();
	}
	const result = send();
	firstBearerCall.set(
		this,
		result.then(
			() => undefined,
			() => undefined,
		),
	);
	return await result;
}
