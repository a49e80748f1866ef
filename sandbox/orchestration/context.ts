import type { EventEmitter } from 'node:events';
import type { SandboxClock } from '../clock';
import type { SandboxConfig, SeedKey, SeedPartner, Switches } from '../config';
import type { FaultInjector } from '../faults';
import type { Catalogue, CatalogueView } from './catalogue';
import type { OrderEngine } from './orders';
import type { SandboxState } from './state';
import type { WebhookDispatcher } from './deliveries';

/** A resolved API key (spec §5). `keyId` is a non-secret handle used in bindings and records. */
export interface Caller {
	type: 'server' | 'client';
	key: SeedKey;
	keyId: string;
	partner: SeedPartner;
}

/** Everything the route modules share. */
export interface OrchestrationContext {
	config: SandboxConfig;
	switches: Switches;
	clock: SandboxClock;
	state: SandboxState;
	catalogue: Catalogue;
	faults: FaultInjector;
	orders: OrderEngine;
	webhooks: WebhookDispatcher;
	/** 'status' (orderId, status) for every emitted public status change; used by the stream. */
	events: EventEmitter;
	keys: Map<string, Caller>;
	/** The gateway's fault injector, when the composition runs one (POST /sandbox/faults `service`). */
	gatewayFaults?: FaultInjector;
}

/** What a caller sees of the catalogue: v2 tokenized equities need the partner's admission. */
export function catalogueView(ctx: OrchestrationContext, partnerId: string | null | undefined, v2 = true): CatalogueView {
	const equityAdmission = v2 && partnerId !== null && partnerId !== undefined && ctx.switches.tokenizedEquityAdmission[partnerId] === true;
	return { v2, equityAdmission, large: ctx.switches.largeCatalogue };
}
