// Webhook endpoints and recovery subscriptions (spec §4.6, §6; public-notes "Webhooks"):
// POST /v1/webhooks {url} and POST /v1/webhooks/recovery {url} answer {webhookId, secret};
// DELETE /v1/webhooks/{webhookId} and DELETE /v1/webhooks/recovery/{id} remove them. The recovery
// paths and bodies come from the public docs only (unconfirmed by the spec). Pure.
import { pathSegment } from '../inputs';

/** `orders`: the order events of spec §6; `recovery`: order.recovery_required (public-notes). */
export type SubscriptionKind = 'orders' | 'recovery';

/** The one event kind recovery subscriptions carry; the service sends it to no other endpoint (public-notes). */
export const RECOVERY_EVENT = 'order.recovery_required';

export const WEBHOOKS_PATH = '/v1/webhooks';
export const RECOVERY_WEBHOOKS_PATH = '/v1/webhooks/recovery';

/** The POST path that registers a subscription of this kind. */
export function webhookCreatePath(kind: SubscriptionKind): string {
	return kind === 'recovery' ? RECOVERY_WEBHOOKS_PATH : WEBHOOKS_PATH;
}

/** The DELETE path of one subscription; the id is one percent-encoded path segment. */
export function webhookPath(webhookId: string, kind: SubscriptionKind): string {
	return `${webhookCreatePath(kind)}/${pathSegment(webhookId)}`;
}
