/**
 * Intent > Execute's identity across n8n's Retry On Fail: the default nonce (derived, so a retried
 * item cannot create a second intent, §2.1 replay protection), the expiry signed again on retry,
 * and what the execution remembers of an intent (its submission, and whether an attempt may have landed).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sha256Hex } from '../../shared/sha256';

/** Default lifetime of an intent: now + 15 minutes (well inside the 24 h horizon of §8). */
export const DEFAULT_EXPIRY_MS = 15 * 60 * 1000;
/** A remembered expiry is reused on retry only while this much time is left. */
const MIN_REMAINING_MS = 60 * 1000;

/**
 * Default nonce: 32 hex characters of a hash of workflow id, execution id, node name, item index and the intent's
 * content without nonce and expiry. n8n's Retry On Fail re-runs the node in the same execution,
 * so a retried item gets the same nonce and the gateway's replay protection (§2.1) stops a
 * second intent. Across executions the user pins a nonce (for example an order id).
 */
export function deriveNonce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	contentWithoutNonce: string,
): string {
	const seed = JSON.stringify([
		'executionGateway.nonce.v1',
		String(ctx.getWorkflow().id ?? ''),
		String(ctx.getExecutionId() ?? ''),
		ctx.getNode().name,
		itemIndex,
		contentWithoutNonce,
	]);
	// 32 lower-case hex characters, the form of the public client's random nonces.
	return sha256Hex(seed).slice(0, 32);
}

/** What this execution remembers about one intent (nonce + content): its expiry and its submission. */
export interface RememberedIntent {
	expiresAt?: number;
	submission?: IDataObject;
	/**
	 * An attempt of this intent (this nonce and content) went out and was not refused: no answer
	 * after the request may have arrived, or a 5xx. Only then is a later nonce_replayed this
	 * intent's own; without it the nonce belongs to another intent.
	 */
	mayHaveLanded?: boolean;
}

/**
 * The node's execution context survives n8n's Retry On Fail (same run data), so a retried item
 * signs the same expiry (hence the same message and intent id) and an item that was already
 * accepted returns its first submission instead of failing with nonce_replayed.
 */
export function rememberedIntent(
	ctx: IExecuteFunctions,
	nonce: string,
	contentWithoutNonce: string,
): RememberedIntent {
	const context = ctx.getContext('node');
	const key = `intent:${sha256Hex(`${nonce}\n${contentWithoutNonce}`)}`;
	const remembered = (context[key] as RememberedIntent | undefined) ?? {};
	context[key] = remembered;
	return remembered;
}

/** The expiry to sign: the explicit one, a remembered one with time left, or now + 15 minutes. */
export function expiryFor(
	remembered: RememberedIntent,
	explicit: number | undefined,
	now: number,
): number {
	if (explicit !== undefined) return explicit;
	if (remembered.expiresAt !== undefined && remembered.expiresAt - now >= MIN_REMAINING_MS)
		return remembered.expiresAt;
	remembered.expiresAt = now + DEFAULT_EXPIRY_MS;
	return remembered.expiresAt;
}
