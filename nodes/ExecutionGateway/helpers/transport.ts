/**
 * The gateway's requests: bearer calls (execute, intent lookup) go through the shared transport
 * with n8n's re-authentication after a 401; the public endpoints (network info, health) are sent
 * without credentials, so a liveness check or discovery never depends on the key (§4: Auth none).
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { ERROR_HINTS } from '../../transport/nodeErrors';
import { callService, type ServiceResponse } from '../../transport/request';

export const CREDENTIAL_TYPE = 'executionGatewayApi';

/** Gateway admission codes (sandbox) that the shared hints do not cover. */
/** Hints for the gateway's admission codes (execution-gateway.md §7, §8). */
export const GATEWAY_HINTS: Record<string, string> = {
	chain_id_mismatch: "The chain ID differs from the gateway's execution chain ID (Network Info).",
	invalid_expires_at: 'Expires At must be in the future and at most 24 hours ahead.',
	nonce_replayed: 'This nonce was already used by this key. A retried item reuses its nonce on purpose: the first submission went through.',
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

export function hintFor(code: string | undefined): string | undefined {
	return code ? (GATEWAY_HINTS[code] ?? ERROR_HINTS[code]) : undefined;
}

/** Per node run: the first bearer call, which the others wait for (see authenticatedCall). */
const firstBearerCall = new WeakMap<IExecuteFunctions, Promise<void>>();

/**
 * A bearer call: n8n adds the token, renews it after a 401 (preAuthentication) and repeats once.
 * The first call of a node run goes alone, so items running in parallel share the token it
 * obtains instead of each running the challenge and verify round trip.
 */
export async function authenticatedCall<T>(
	ctx: IExecuteFunctions,
	call: { method: IHttpRequestMethods; url: string; body?: string; itemIndex: number },
): Promise<ServiceResponse<T>> {
	const send = async () =>
		(await callService.call(ctx, {
			credentialType: CREDENTIAL_TYPE,
			method: call.method,
			url: call.url,
			body: call.body,
			itemIndex: call.itemIndex,
			reauthenticateOn401: true,
			hints: GATEWAY_HINTS,
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
export async function publicGet<T>(ctx: IExecuteFunctions, url: string, qs: IDataObject | undefined, itemIndex: number): Promise<T> {
	const res = await callService.call(ctx, { method: 'GET', url, qs, itemIndex, hints: GATEWAY_HINTS });
	return res.body as T;
}
