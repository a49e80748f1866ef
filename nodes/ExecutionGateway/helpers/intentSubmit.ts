/**
 * Intent > Execute, sending: signing the intent and posting it, with its outcomes told apart:
 * accepted (the §2.2 answer), accepted earlier (an own nonce replay after a lost answer), refused
 * (a service error with the gateway's hint; a replayed nonce that no attempt of this item can
 * explain is another intent's, so this one was not accepted), and refused before sending (network
 * paused). The identity kept across Retry On Fail is intentIdentity.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { closeCanonicalBody, serializeWireIntent } from '../../shared/gateway/canonical';
import { bytesToHex } from '../../shared/gateway/hex';
import { wireIntent, type IntentHeader, type IntentPlan } from '../../shared/gateway/intentPlan';
import { sha256Bytes, signDigestDer } from '../../shared/gateway/keys';
import {
	ExecuteResponseSchema,
	normalizeIntentStatus,
	type NetworkInfo,
} from '../../shared/gateway/responses';
import { ItemError, ServiceError } from '../../n8n/errors';
import type { AttemptOutcome } from '../../n8n/transport';
import { gatewayApiRequest, GATEWAY_HINTS } from '../transport';
import { answerError, forgetNetworkInfo, type GatewaySigner } from './gateway';
import type { RememberedIntent } from './intentIdentity';

/**
 * §2.3a `paused` is advisory on the live service: by default the intent is sent and the
 * output carries a warning; with "Refuse When Paused" (the default of node version 1) it never leaves.
 */
export function pausedWarning(
	ctx: IExecuteFunctions,
	itemIndex: number,
	info: NetworkInfo,
	options: IDataObject,
): string | undefined {
	if (!info.paused) return undefined;
	const refuse =
		typeof options.refuseWhenPaused === 'boolean'
			? options.refuseWhenPaused
			: ctx.getNode().typeVersion < 1.1;
	if (!refuse)
		return 'Network Info reported paused: true; the intent was submitted anyway (the flag is advisory). Check its status before relying on it.';
	throw new ItemError(
		ctx.getNode(),
		`The gateway network is paused (item ${itemIndex}): no intent is accepted now`,
		{
			itemIndex,
			description:
				'Network Info reports paused: true and "Refuse When Paused" is on. Nothing was sent; try again once the gateway resumes.',
			errorCode: 'network_paused',
		},
	);
}

/** Answers that mean the cached network info (§2.3a) is out of date. */
const STALE_NETWORK_INFO_CODES = new Set([
	'chain_id_mismatch',
	'network_paused',
	'below_min_deposit',
]);

/**
 * What a nonce_replayed means when no attempt of this item can have been accepted (each was refused,
 * or never connected): the nonce is another intent's, and this one was not accepted.
 */
function notAcceptedReplay(nonce: string): string {
	return `Nonce "${nonce}" was already used by this keypair, so this intent was NOT accepted: no attempt of this item can have been accepted (each one was refused or never connected), so the nonce belongs to another intent submitted before (an earlier run of this execution, or the same pinned Nonce on another item or workflow). Nothing was submitted and no intent was signed with another nonce. Look the other intent up with Intent > Get; to submit this one on purpose, give it a new Nonce.`;
}

/** After a refusal that contradicts the cached network info, the next item or run fetches it again. */
function forgetStaleNetworkInfo(error: unknown, gatewayUrl: string): void {
	const code = error instanceof ServiceError ? error.errorCode : undefined;
	if (code !== undefined && STALE_NETWORK_INFO_CODES.has(code)) forgetNetworkInfo(gatewayUrl);
}

function actionSummary(plan: IntentPlan): IDataObject {
	return plan.evm
		? { signedTxHash: plan.evm.hash, evmSigner: plan.evm.fromChecksum }
		: { recipient: (plan.action as { recipient: string }).recipient };
}

/**
 * Whether an attempt may have been admitted: it went out and got no answer (lost or late), or the
 * answer was a 5xx (the gateway, or a proxy in front of it, may have acted first). A 4xx is the
 * gateway's refusal, and a connection never made sent nothing.
 */
function mayHaveLanded(outcome: AttemptOutcome): boolean {
	return outcome.answered ? outcome.statusCode >= 500 : outcome.mayHaveArrived;
}

/**
 * nonce_replayed is this intent's own only after one of its attempts (in this call or an earlier
 * try of this execution) may have been admitted (§2.1 nonce replay protection); otherwise another
 * intent holds the nonce.
 */
function isOwnReplay(error: unknown, remembered: RememberedIntent): boolean {
	return (
		error instanceof ServiceError &&
		error.errorCode === 'nonce_replayed' &&
		remembered.mayHaveLanded === true
	);
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
		message: `The gateway accepted this intent earlier (nonce "${nonce}"): an earlier attempt went out and its answer was lost, so the retry was refused as a replay (nonce_replayed) and no second intent was created. It cannot be read back here: the gateway looks intents up by submission id only, and that id was in the lost answer. Find the intent by this nonce or messageDigest (Wait Until Final cannot follow it without that id).`,
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
export async function submit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	intent: Submission,
	remembered: RememberedIntent,
): Promise<IDataObject> {
	const { signer, plan, header } = intent;
	const digest = sha256Bytes(closeCanonicalBody(intent.canonicalBody, header));
	const signed = {
		signature: signDigestDer(digest, signer.privateKey),
		digestHex: bytesToHex(digest),
	};
	const signature = {
		messageDigest: signed.digestHex,
		signerPublicKey: signer.publicKey,
		chainId: header.chainId,
	};
	// Each attempt's fate, kept across Retry On Fail: did one of them possibly reach the gateway?
	const onAttempt = (outcome: AttemptOutcome) => {
		if (mayHaveLanded(outcome)) remembered.mayHaveLanded = true;
	};
	const request = serializeWireIntent({ ...wireIntent(plan, header), signature: signed.signature });
	// A nonce_replayed that is not this intent's own says what it means here (notAcceptedReplay).
	const hints = { ...GATEWAY_HINTS, nonce_replayed: notAcceptedReplay(header.nonce) };
	const sent = await gatewayApiRequest
		.call(ctx, 'POST', '/api/v1/execute', request, { itemIndex, onAttempt, hints })
		.then(
			(res) => ({ answer: res.body }),
			(error: unknown) => ({ refusal: error }),
		);
	if ('refusal' in sent) {
		forgetStaleNetworkInfo(sent.refusal, signer.gatewayUrl);
		if (!isOwnReplay(sent.refusal, remembered)) throw sent.refusal;
		return acceptedEarlier(header.nonce, {
			...signature,
			expiresAt: header.expiresAt,
			...actionSummary(plan),
		});
	}
	const accepted = ExecuteResponseSchema.safeParse(sent.answer);
	if (!accepted.success)
		throw answerError(
			ctx,
			itemIndex,
			'The gateway accepted the intent but its answer lacks submissionId, intentId or status (§2.2)',
		);
	const { submissionId, intentId, status } = accepted.data;
	const shown = {
		submissionId,
		intentId,
		status: normalizeIntentStatus(status) as string,
		...signature,
	};
	return { ...shown, nonce: header.nonce, expiresAt: header.expiresAt, ...actionSummary(plan) };
}
