/**
 * One webhook delivery, decided without n8n: configuration (500) -> size (413) -> signature and
 * timestamp, one pass over the endpoint's secrets (401) -> nesting depth (400) -> JSON (400) ->
 * envelope shape (400) -> event kind against the subscription whose secret signed it (401) -> event
 * filter (200, no run) -> a run of this process already started for it (200, no run) -> accepted
 * (one execution; n8n answers 200 once it exists).
 * Spec §6: verify the signature over the raw bytes before parsing, and before any run check is
 * read; duplicates are keyed on (data.id, event, data.updatedAt), never on the signature timestamp.
 * Nothing here records a delivery: only a run does, once its execution exists (runCheck.ts).
 */
import {
	jsonNestingExceeds,
	MAX_WEBHOOK_JSON_DEPTH,
	payloadHash,
	verifyWebhookDelivery,
	eventDuplicateKey,
	webhookDuplicateKey,
	webhookSecretProblem,
	type WebhookRejectionReason,
} from '../shared/orchestration/webhooks';
import { RECOVERY_EVENT, type SubscriptionKind } from '../shared/orchestration/webhookPaths';
import {
	MAX_WEBHOOK_BODY_BYTES,
	MAX_WEBHOOK_TOLERANCE_SECONDS,
	WEBHOOK_RETRY_SCHEDULE_MS,
	WEBHOOK_TOLERANCE_SECONDS,
} from '../shared/orchestration/limits';
import type { EventSelection } from './events';

/** The `error` member of a rejection answer. */
export type RejectionCode =
	| 'missing_signature'
	| 'missing_timestamp'
	| 'malformed_signature'
	| 'malformed_timestamp'
	| 'stale_timestamp'
	| 'future_timestamp'
	| 'signature_mismatch'
	| 'payload_too_large'
	| 'json_too_deep'
	| 'invalid_json'
	| 'wrong_subscription'
	| 'invalid_envelope'
	| 'raw_body_unavailable'
	| 'secret_unavailable'
	| 'invalid_event_filter';

const SIGNATURE_REJECTIONS: Record<WebhookRejectionReason, RejectionCode> = {
	missing_signature: 'missing_signature',
	missing_timestamp: 'missing_timestamp',
	malformed_signature: 'malformed_signature',
	malformed_timestamp: 'malformed_timestamp',
	stale: 'stale_timestamp',
	future: 'future_timestamp',
	mismatch: 'signature_mismatch',
};

export type IgnoreReason = 'event_not_selected' | 'duplicate';

/** The envelope of spec §6 as far as the trigger relies on it; other members pass through. */
export interface DeliveryEnvelope {
	event: string;
	data: { id: string; updatedAt?: unknown; [member: string]: unknown };
	[member: string]: unknown;
}

export type DeliveryDecision =
	| { outcome: 'rejected'; status: 400 | 401 | 413 | 500; error: RejectionCode; message: string }
	| { outcome: 'ignored'; status: 200; reason: IgnoreReason; event: string; duplicateKey?: string }
	| {
			outcome: 'accepted';
			envelope: DeliveryEnvelope;
			duplicateKey: string;
			replayKey: string;
			signatureTimestampMs: number;
			/** The subscription whose secret signed the delivery. */
			subscription: SubscriptionKind;
	  };

export interface DeliveryInput {
	/** The exact received bytes; undefined when the server did not keep them. */
	rawBody: Buffer | string | undefined;
	headers: Record<string, string | string[] | undefined>;
	/** The endpoint's secret as configured (order events): anything but a long enough string is refused. */
	secret: unknown;
	/**
	 * The recovery subscription's secret for the same URL, when there is one: it verifies
	 * order.recovery_required only, and the endpoint's secret verifies every kind but that one
	 * (public-notes: recovery events go to recovery subscriptions only). Set but unusable: refused.
	 */
	recoverySecret?: unknown;
	/** While a secret is replaced: the retired endpoint's secret, verifying what `secret` verifies. */
	previousSecret?: unknown;
	toleranceSeconds: number;
	nowMs: number;
	/** Event kinds that start a run; undefined when the filter is not a list (fails closed). */
	events: EventSelection | undefined;
	/**
	 * Keys whose run already started in this process (read only, after verification): such a copy is
	 * answered 200 without an execution. Undefined: every verified copy gets an execution and the run
	 * decides (runCheck.ts).
	 */
	runStarted?: (keys: { duplicateKey: string; replayKey: string }) => boolean;
}

function reject(
	status: 400 | 401 | 413 | 500,
	error: RejectionCode,
	message: string,
): DeliveryDecision {
	return { outcome: 'rejected', status, error, message };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deliberately lenient: only what routing and deduplication need is required, so a snapshot with
 * members this package does not know (or null until a step is reached, spec 2.10) still runs.
 */
export function envelopeProblem(body: unknown): string | undefined {
	if (!isObject(body))
		return 'The body must be a JSON object: the event envelope {event, data} (spec §6)';
	if (typeof body.event !== 'string' || body.event === '')
		return '"event" must be a non-empty string';
	if (!isObject(body.data)) return '"data" must be an object: the order snapshot';
	if (typeof body.data.id !== 'string' || body.data.id === '')
		return '"data.id" must be a non-empty string';
	return undefined;
}

/**
 * spec §6 duplicate key (data.id, event, data.updatedAt); without an updatedAt, a hash of the
 * event and its data only: the envelope's delivery `timestamp` changes on a retry (public-notes).
 */
export function duplicateKeyOf(envelope: DeliveryEnvelope): string {
	const { updatedAt } = envelope.data;
	if (typeof updatedAt === 'string' && updatedAt !== '') {
		return webhookDuplicateKey({
			event: envelope.event,
			data: { id: envelope.data.id, updatedAt },
		});
	}
	return eventDuplicateKey(envelope.event, envelope.data);
}

function configurationProblem(input: DeliveryInput): DeliveryDecision | undefined {
	const secretProblem = webhookSecretProblem(input.secret);
	if (secretProblem !== undefined) {
		return reject(
			500,
			'secret_unavailable',
			`This endpoint cannot verify deliveries: ${secretProblem}. Set the endpoint's secret, or deactivate and activate the workflow`,
		);
	}
	const recoveryProblem =
		input.recoverySecret === undefined ? undefined : webhookSecretProblem(input.recoverySecret);
	if (recoveryProblem !== undefined) {
		return reject(
			500,
			'secret_unavailable',
			`This endpoint cannot verify recovery deliveries: ${recoveryProblem.replace('webhook secret', 'recovery secret')}. Set the recovery secret or remove it`,
		);
	}
	const previousProblem =
		input.previousSecret === undefined ? undefined : webhookSecretProblem(input.previousSecret);
	if (previousProblem !== undefined) {
		return reject(
			500,
			'secret_unavailable',
			`This endpoint cannot verify deliveries: ${previousProblem.replace('webhook secret', 'previous webhook secret')}. Fix it or clear it`,
		);
	}
	if (input.events === undefined) {
		return reject(
			500,
			'invalid_event_filter',
			'The "Events" filter is not a list of event kinds; no delivery starts a run until it is fixed',
		);
	}
	if (input.rawBody === undefined) {
		return reject(
			500,
			'raw_body_unavailable',
			'The raw request body was not kept, so the signature cannot be verified',
		);
	}
	return undefined;
}

/**
 * JSON.parse, and whether a member is named `__proto__`: JSON makes it an own member, but the first
 * copy made by assignment turns it into that object's prototype. Only text that could spell the
 * name (plainly or with \u escapes) pays for the reviver.
 */
function parseJson(text: string): { value: unknown; protoMember: boolean } {
	if (!text.includes('__proto__') && !text.includes('\\u'))
		return { value: JSON.parse(text), protoMember: false };
	let protoMember = false;
	const value: unknown = JSON.parse(text, (key, member: unknown) => {
		if (key === '__proto__') protoMember = true;
		return member;
	});
	return { value, protoMember };
}

function parseEnvelope(
	rawBody: Buffer | string,
): { envelope: DeliveryEnvelope } | { refused: DeliveryDecision } {
	// Parsed from the verified bytes themselves, never from a body another layer parsed.
	let body: unknown;
	try {
		const parsed = parseJson(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
		if (parsed.protoMember)
			return {
				refused: reject(
					400,
					'invalid_envelope',
					'The body has a member named "__proto__", which no order event carries',
				),
			};
		body = parsed.value;
	} catch {
		return { refused: reject(400, 'invalid_json', 'The body is not JSON') };
	}
	const problem = envelopeProblem(body);
	return problem === undefined
		? { envelope: body as DeliveryEnvelope }
		: { refused: reject(400, 'invalid_envelope', problem) };
}

interface SubscriptionSecret {
	secret: string;
	kind: SubscriptionKind | 'both';
	/** The subscription a delivery of this event kind signed with this secret came from; undefined: none. */
	subscriptionFor(event: string): SubscriptionKind | undefined;
}

/**
 * The secrets to try, each with the event kinds its subscription carries. The same secret given for
 * both (an existing endpoint set up that way) carries every kind.
 */
function subscriptionSecrets(input: DeliveryInput): SubscriptionSecret[] {
	const orders = input.secret as string;
	const recovery = input.recoverySecret as string | undefined;
	const isRecovery = (event: string) => event === RECOVERY_EVENT;
	const ordersOnly: SubscriptionSecret = {
		secret: orders,
		kind: 'orders',
		subscriptionFor: (e) => (isRecovery(e) ? undefined : 'orders'),
	};
	// the retired endpoint's secret, while it is replaced, verifies the order events its endpoint sends
	const previous =
		typeof input.previousSecret === 'string' && input.previousSecret !== orders
			? [{ ...ordersOnly, secret: input.previousSecret }]
			: [];
	if (recovery === undefined) return [ordersOnly, ...previous];
	if (recovery === orders)
		return [
			{
				secret: orders,
				kind: 'both',
				subscriptionFor: (e) => (isRecovery(e) ? 'recovery' : 'orders'),
			},
			...previous,
		];
	return [
		ordersOnly,
		...previous,
		{
			secret: recovery,
			kind: 'recovery',
			subscriptionFor: (e) => (isRecovery(e) ? 'recovery' : undefined),
		},
	];
}

function wrongSubscription(event: string, signedBy: SubscriptionSecret['kind']): DeliveryDecision {
	return signedBy === 'recovery'
		? reject(
				401,
				'wrong_subscription',
				`${event} was signed with the recovery subscription's secret, which the service uses only for ${RECOVERY_EVENT}`,
			)
		: reject(
				401,
				'wrong_subscription',
				`${RECOVERY_EVENT} is delivered only to recovery subscriptions, but this one was signed with the order endpoint's secret`,
			);
}

/** The key of one signed request (its signature, hashed: the header itself is kept out of outputs). */
export function replayKeyOf(signature: string): string {
	return `sig:${payloadHash(signature.toLowerCase())}`;
}

export function handleDelivery(input: DeliveryInput): DeliveryDecision {
	const refused = configurationProblem(input);
	if (refused !== undefined) return refused;
	const rawBody = input.rawBody as Buffer | string;
	if (rawBody.length > MAX_WEBHOOK_BODY_BYTES) {
		return reject(
			413,
			'payload_too_large',
			`The body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes (the service's own limit); it is not verified`,
		);
	}
	// One pass: the endpoint's secret first (order events are the common case), then the recovery one.
	const secrets = subscriptionSecrets(input);
	const verified = verifyWebhookDelivery({
		secrets: secrets.map((s) => s.secret),
		headers: input.headers,
		rawBody,
		toleranceSeconds: input.toleranceSeconds,
		nowMs: input.nowMs,
	});
	if (!verified.ok) return reject(401, SIGNATURE_REJECTIONS[verified.reason], verified.message);
	if (jsonNestingExceeds(rawBody, MAX_WEBHOOK_JSON_DEPTH)) {
		return reject(
			400,
			'json_too_deep',
			`The body nests objects or arrays more than ${MAX_WEBHOOK_JSON_DEPTH} levels deep; an order event nests a few, and n8n could not store it`,
		);
	}
	const parsed = parseEnvelope(rawBody);
	if ('refused' in parsed) return parsed.refused;
	const { envelope } = parsed;
	const subscription = secrets[verified.secretIndex].subscriptionFor(envelope.event);
	if (subscription === undefined)
		return wrongSubscription(envelope.event, secrets[verified.secretIndex].kind);
	if (!(input.events as EventSelection).accepts(envelope.event)) {
		return { outcome: 'ignored', status: 200, reason: 'event_not_selected', event: envelope.event };
	}
	const duplicateKey = duplicateKeyOf(envelope);
	// A verified signature is 64 hex characters; lower-cased, so an upper-cased copy is the same request.
	const replayKey = replayKeyOf(verified.signature);
	if (input.runStarted?.({ duplicateKey, replayKey }) === true) {
		return {
			outcome: 'ignored',
			status: 200,
			reason: 'duplicate',
			event: envelope.event,
			duplicateKey,
		};
	}
	return {
		outcome: 'accepted',
		envelope,
		duplicateKey,
		replayKey,
		signatureTimestampMs: verified.timestampMs,
		subscription,
	};
}

/** The configured tolerance, bounded: at most MAX_WEBHOOK_TOLERANCE_SECONDS, the default when unset or invalid. */
export function toleranceOf(value: unknown): number {
	const n = Number(value);
	return Number.isFinite(n) && n > 0
		? Math.min(n, MAX_WEBHOOK_TOLERANCE_SECONDS)
		: WEBHOOK_TOLERANCE_SECONDS;
}

/** Hours a run of this process keeps answering copies itself (at least the service's retry horizon). */
export const DEDUPLICATION_HOURS = Math.ceil(WEBHOOK_RETRY_SCHEDULE_MS / 3_600_000);

export function hoursOf(value: unknown): number {
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : DEDUPLICATION_HOURS;
}
