/**
 * One item's way to the Orchestration service. The router builds one per item and hands it to the
 * operation, which imports only its type: an operation's own code is its description, its read of
 * the item and the core's plan; every call leaves through here, with the item's index, the
 * credential checked once per run, and the one client (client.ts) with its hints and pacing.
 */
import type { IDataObject } from 'n8n-workflow';
import type { ServiceResponse } from '../n8n/transport';
import type { OrchestrationReader } from './itemReader';
import { followClaim, type ClaimToFollow, type ClaimWaitResult } from './claimWait';
import { followOrder, type OrderToFollow, type OrderWaitResult } from './orderWait';
import { readPages, type Listing } from './paging';
import { catalogueFor, orchestrationRequest, type OrchestrationCall, type ServiceAccess } from '../n8n/orchestrationClient';
import type { RoutesCatalogue } from '../shared/orchestration/routesCatalogue';
import { idempotencyKeyFor, type KeyedRequest } from './idempotencyKey';

export class ItemService {
	constructor(
		private readonly read: OrchestrationReader,
		private readonly access: ServiceAccess,
	) {}

	/** One request of this item (orchestration-service.md §4), through the shared transport. */
	async request<T = IDataObject>(call: OrchestrationCall): Promise<ServiceResponse<T>> {
		return await orchestrationRequest<T>(this.read.ctx, this.access, { itemIndex: this.read.itemIndex, ...call });
	}

	/** The idempotency key of a mutating call: the user's, or one derived from the run, the item and the body. */
	idempotencyKey(request: KeyedRequest): string {
		return idempotencyKeyFor(this.read, request);
	}

	/** The routes catalogue (§4.3), cached per credential: required, or best effort (undefined when unreachable). */
	async catalogue(required: true): Promise<RoutesCatalogue>;
	async catalogue(required: boolean): Promise<RoutesCatalogue | undefined>;
	async catalogue(required: boolean): Promise<RoutesCatalogue | undefined> {
		return await catalogueFor(this.read, this.access, required);
	}

	/** Follows one order (its event stream, or polling) until final, the timeout or an answer it needs. */
	async follow(order: Omit<OrderToFollow, 'ctx' | 'itemIndex' | 'access'>): Promise<OrderWaitResult> {
		return await followOrder({ ...order, ctx: this.read.ctx, itemIndex: this.read.itemIndex, access: this.access });
	}

	/** Follows one affiliate claim (polling) until it is paid or fails, or the timeout. */
	async followClaim(claim: Omit<ClaimToFollow, 'ctx' | 'itemIndex'>): Promise<ClaimWaitResult> {
		return await followClaim({ ...claim, ctx: this.read.ctx, itemIndex: this.read.itemIndex });
	}

	/** A paged listing read page by page, cut to Limit unless Return All. */
	async pages(listing: Listing): Promise<IDataObject[]> {
		return await readPages(this.read, this.access, listing);
	}
}
