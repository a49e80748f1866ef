/** The routes' amount bounds (GET /v1/orchestration/limits, public-notes), read once per node run: checked before a quote, named after a refusal. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { ServiceError, withDetail } from '../../n8n/errors';
import { itemFailure } from '../../n8n/items';
import {
	describeBounds,
	outsideBounds,
	routeBoundsOf,
	type RouteRequest,
} from '../../shared/orchestration/routeLimits';
import { orchestrationApiRequest } from '../transport';

const limitsByRun = new WeakMap<object, Promise<unknown>>();

/** Every route's limits, one read per node run (a failed read is tried again by the next item). */
async function limitsOf(ctx: IExecuteFunctions, i: number): Promise<unknown> {
	let limits = limitsByRun.get(ctx);
	if (limits === undefined) {
		limits = orchestrationApiRequest
			.call(ctx, 'GET', '/v1/orchestration/limits', undefined, { itemIndex: i })
			.then((res) => res.body as unknown);
		limitsByRun.set(ctx, limits);
		limits.catch(() => limitsByRun.delete(ctx));
	}
	return await limits;
}

/** Fails the item, before the quote is sent, when its amount is outside the route's bounds ("Check Limits"). */
export async function checkLimits(
	ctx: IExecuteFunctions,
	i: number,
	request: RouteRequest & { amount?: unknown },
): Promise<void> {
	const bounds = routeBoundsOf(await limitsOf(ctx, i), request);
	const outside =
		bounds && typeof request.amount === 'string'
			? outsideBounds(request.amount, bounds)
			: undefined;
	if (outside === undefined || bounds === undefined) return;
	throw itemFailure(ctx, i, `Amount: ${outside.message}`, {
		description: `Nothing was sent: the service would refuse it (${outside.code}). ${describeBounds(bounds)}`,
		errorCode: outside.code,
	});
}

/** An amount_too_small / amount_too_large answer with the route's bounds named (best effort: the answer as it is otherwise). */
export async function withRouteBounds(
	ctx: IExecuteFunctions,
	i: number,
	request: IDataObject,
	error: unknown,
): Promise<unknown> {
	if (
		!(error instanceof ServiceError) ||
		(error.errorCode !== 'amount_too_small' && error.errorCode !== 'amount_too_large')
	)
		return error;
	try {
		const bounds = routeBoundsOf(await limitsOf(ctx, i), request as unknown as RouteRequest);
		return bounds === undefined ? error : withDetail(error, describeBounds(bounds));
	} catch {
		return error;
	}
}
