/**
 * Every order event the service emits during the month, with the endpoints it had then. The sandbox
 * delivers an event only to the endpoints that exist when it is emitted and keeps no record of an
 * event sent nowhere: its deliveries cannot show one. Each public status change of an order tells
 * its status listeners right after its deliveries are made, so the endpoints read there are the
 * ones that got the event.
 */
import type { Sandbox } from '../../../sandbox';

export interface Emission {
	orderId: string;
	/** `order.<status>`, the kind the deliveries carry. */
	event: string;
	at: number;
	/** URLs of the partner's enabled order-event endpoints when it was emitted. */
	endpoints: string[];
}

/** Records the emissions from now on (into the returned list). */
export function watchEmissions(sandbox: Sandbox): Emission[] {
	const out: Emission[] = [];
	const ctx = sandbox.orchestration.ctx;
	ctx.events.on('status', (orderId: string, status: string) => {
		const partnerId = ctx.state.orders.get(orderId)?.partnerId;
		// an order without a partner is sent to nobody (not one of the month's)
		if (!partnerId) return;
		const endpoints = ctx.state.webhooks.filter((w) => w.partnerId === partnerId && w.kind === undefined && !w.disabledAt).map((w) => w.url);
		out.push({ orderId, event: `order.${status}`, at: Date.now(), endpoints });
	});
	return out;
}
