/**
 * Intent > Execute, sending: signing the intent and posting it, with its outcomes told apart:
 * accepted (the §2.2 answer), accepted earlier (an own nonce replay after a lost answer), refused
 * (a service error with the gateway's hint), and refused before sending (network paused). The
 * identity kept across Retry On Fail is intentIdentity.ts.
 */
import type { IDataObject, JsonObject } from 'n8n-workflow';
import { closeCanonicalBody, serializeWireIntent } from '../shared/gateway/canonical';
import { bytesToHex } from '../shared/gateway/hex';
import { wireIntent, type IntentHeader, type IntentPlan } from '../shared/gateway/intentPlan';
import { sha256Bytes, signDigestDer } from '../shared/gateway/keys';
import { ExecuteResponseSchema, normalizeIntentStatus, type NetworkInfo } from '../shared/gateway/responses';
import type { ItemReader } from '../n8n/items';
import { ItemError, itemErrorOf, ServiceError } from '../n8n/errors';
import { joinUrl } from '../shared/secureUrl';
import { answerError, authenticatedCall, forgetNetworkInfo, type GatewaySigner, hintFor } from './gateway';
import type { RememberedIntent } from './intentIdentity';

/**
 * §2.3a `paused` is advisory on the live service (issue 10): by default the intent is sent and the
 * output carries a warning; with "Refuse When Paused" (the default of node version 1) it never leaves.
 */
export function pausedWarning(read: ItemReader, info: NetworkInfo, options: IDataObject): string | undefined {
	const { ctx, itemIndex } = read;
	if (!info.paused) return undefined;
	const refuse = typeof options.refuseWhenPaused === 'boolean' ? options.refuseWhenPaused : ctx.getNode().typeVersion < 1.1;
	if (!refuse) return 'Network Info reported paused: true; the intent was submitted anyway (the flag is advisory). Check its status before relying on it.';
	throw new ItemError(ctx.getNode(), `The gateway network is paused (item ${itemIndex}): no intent is accepted now`, {
		itemIndex,
		description: 'Network Info reports paused: true and "Refuse When Paused" is on. Nothing was sent; try again once the gateway resumes.',
		errorCode: 'network_paused',
	});
}

/** Answers that mean the cached network info (§2.3a) is out of date. */
const STALE_NETWORK_INFO_CODES = new Set(['chain_id_mismatch', 'network_paused', 'below_min_deposit']);

/** Rebuilds a transport error for this item with the gateway hint; nonce_replayed says what it means here. */
function submissionError(read: ItemReader, error: unknown, sent: { nonce: string; gatewayUrl: string }): Error {
	const { ctx, itemIndex } = read;
	const { nonce, gatewayUrl } = sent;
	if (!(error instanceof ServiceError)) return itemErrorOf(ctx.getNode(), itemIndex, error);
	const code = error.errorCode;
	// The next item or run fetches network info again instead of trusting the cache.
	if (code && STALE_NETWORK_INFO_CODES.has(code)) forgetNetworkInfo(gatewayUrl);
	const description =
		code === 'nonce_replayed'
			? `Nonce "${nonce}" was already used by this keypair, so this intent was not submitted twice. Either an earlier attempt reached the gateway and its answer was lost, or this item already ran with the same nonce (an execution retried as a whole, or a pinned Nonce). Look the first submission up with Intent > Get; to submit a new intent on purpose, set a new Nonce.`
			: (error.description ?? hintFor(code));
	return new ServiceError(ctx.getNode(), (error.errorResponse ?? { message: error.message }) as JsonObject, {
		message: error.message,
		description: description ?? undefined,
		httpCode: error.httpCode ?? undefined,
		itemIndex,
		errorCode: code,
		attempts: error.attempts,
	});
}

function actionSummary(plan: IntentPlan): IDataObject {
	return plan.evm ? { signedTxHash: plan.evm.hash, evmSigner: plan.evm.fromChecksum } : { recipient: (plan.action as { recipient: string }).recipient };
}

/**
 * nonce_replayed for a signed message this node already sent (a retry in this call, or an earlier
 * try of this execution): the gateway accepted that first attempt (§2.1 nonce replay protection).
 */
function isOwnReplay(error: unknown, sentBefore: boolean): boolean {
	return error instanceof ServiceError && error.errorCode === 'nonce_replayed' && (sentBefore || error.attempts > 1);
}

/** The outcome of a lost answer: the intent exists once; its submission id was in the answer that never arrived. */
function acceptedEarlier(nonce: string, sent: IDataObject): IDataObject {
	return {
		outcome: 'accepted_earlier',
		submissionId: null,
		intentId: null,
		status: null,
		nonce,
		...sent,
		message: `The gateway accepted this intent earlier (nonce "${nonce}"): an earlier attempt reached it but its answer was lost, so the retry was refused as a replay (nonce_replayed) and no second intent was created. Its submission id was in the lost answer; find the intent by this nonce or messageDigest (Wait Until Final cannot follow it without that id).`,
	};
}

/** What is signed and sent: the plan under its final header, and the §2.4 body serialized once. */
export interface Submission {
	signer: GatewaySigner;
	plan: IntentPlan;
	header: IntentHeader;
	canonicalBody: string;
}

/** Signs the plan's message under its final header and posts it (§2.1, §2.2); a lost answer is told apart. */
export async function submit(read: ItemReader, intent: Submission, remembered: RememberedIntent): Promise<IDataObject> {
	const { signer, plan, header } = intent;
	const digest = sha256Bytes(closeCanonicalBody(intent.canonicalBody, header));
	const signed = { signature: signDigestDer(digest, signer.privateKey), digestHex: bytesToHex(digest) };
	const sentBefore = remembered.sentDigest === signed.digestHex;
	remembered.sentDigest = signed.digestHex;
	const signature = { messageDigest: signed.digestHex, signerPublicKey: signer.publicKey, chainId: header.chainId };
	let body: unknown;
	try {
		const request = serializeWireIntent({ ...wireIntent(plan, header), signature: signed.signature });
		body = (await authenticatedCall<unknown>(read, { method: 'POST', url: joinUrl(signer.gatewayUrl, '/api/v1/execute'), body: request })).body;
	} catch (error) {
		if (!isOwnReplay(error, sentBefore)) throw submissionError(read, error, { nonce: header.nonce, gatewayUrl: signer.gatewayUrl });
		return acceptedEarlier(header.nonce, { ...signature, expiresAt: header.expiresAt, ...actionSummary(plan) });
	}
	const accepted = ExecuteResponseSchema.safeParse(body);
	if (!accepted.success) throw answerError(read, 'The gateway accepted the intent but its answer lacks submissionId, intentId or status (§2.2)');
	const { submissionId, intentId, status } = accepted.data;
	const shown = { submissionId, intentId, status: normalizeIntentStatus(status) as string, ...signature };
	return { ...shown, nonce: header.nonce, expiresAt: header.expiresAt, ...actionSummary(plan) };
}
