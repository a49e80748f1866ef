import type { FastifyInstance } from 'fastify';
import { parseRoutingKey, withoutTonAlias } from '../spec';
import { authenticate } from '../auth';
import type { CatalogueAsset } from '../catalogue';
import { catalogueView, type OrchestrationContext } from '../context';
import { routeLimits, usdToUnits } from '../pricing';
import { checkIpLimit } from '../rateLimits';

type Query = Record<string, string | undefined>;

/** An asset filter matches a symbol, a routing key or the TON alias (spec §2.1). */
function assetMatches(filter: string | undefined, a: CatalogueAsset): boolean {
	if (!filter) return true;
	const normalized = withoutTonAlias(filter);
	const key = parseRoutingKey(normalized);
	return key ? key.chain === a.chain && key.asset === a.asset : normalized === a.asset;
}

/** A route leg as the limits entries name it (public-notes: chain, asset, contractAddress, decimals, chainId). */
function assetOf(a: CatalogueAsset): Record<string, unknown> {
	return { chain: a.chain, asset: a.asset, contractAddress: a.contractAddress, decimals: a.decimals, chainId: a.chainInfo.chainId };
}

/** The bounds of the amount a quote request carries, in the request leg's smallest units and in US cents. */
function requestAmount(leg: 'source' | 'destination', a: CatalogueAsset, min: bigint, max: bigint, minCents: bigint, maxCents: bigint): Record<string, unknown> {
	return {
		leg, chain: a.chain, asset: a.asset,
		minAmountSmallest: min.toString(), maxAmountSmallest: max.toString(), minUsdCents: minCents.toString(), maxUsdCents: maxCents.toString(),
	};
}

export function registerCatalogueEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	// spec §4.3: public and partner-aware; tokenized equities only in v2, only with admission (spec §9)
	// public-notes: v2 routes and limits are limited per IP
	app.get('/v2/orchestration/routes', async (request, reply) => {
		checkIpLimit(ctx, request, reply, 'routes');
		const caller = authenticate(ctx, request, { optional: true });
		return { assets: ctx.catalogue.listing(catalogueView(ctx, caller?.partner.partnerId, true)) };
	});

	app.get('/v1/orchestration/routes', async (request) => {
		const caller = authenticate(ctx, request, { optional: true });
		return { assets: ctx.catalogue.listing(catalogueView(ctx, caller?.partner.partnerId, false)) };
	});

	// public-notes: `{generatedAt, routes[]}`, filtered by the optional route fields, from the same catalogue
	app.get('/v1/orchestration/limits', async (request, reply) => {
		checkIpLimit(ctx, request, reply, 'limits');
		const caller = authenticate(ctx, request, { optional: true });
		const q = request.query as Query;
		const view = catalogueView(ctx, caller?.partner.partnerId, true);
		const entries = ctx.catalogue.visible(view);
		const byId = new Map(entries.map((e) => [e.id, e]));
		const routes: Array<Record<string, unknown>> = [];
		for (const src of entries) {
			if ((q.sourceChain && q.sourceChain !== src.chain) || !assetMatches(q.sourceAsset, src)) continue;
			const targets = src.to === 'all' ? entries.filter((e) => ctx.catalogue.reaches(src, e, 'to')) : src.to.map((id) => byId.get(id));
			for (const dst of targets) {
				if (!dst || (q.destinationChain && q.destinationChain !== dst.chain) || !assetMatches(q.destinationAsset, dst)) continue;
				const { minAmount, maxAmount, minCents, maxCents } = routeLimits(src, dst);
				const exactOut = ctx.catalogue.reaches(src, dst, 'exactOutTo');
				routes.push({
					sourceChain: src.chain,
					sourceAsset: src.asset,
					destinationChain: dst.chain,
					destinationAsset: dst.asset,
					minAmount: minAmount.toString(),
					maxAmount: maxAmount.toString(),
					decimals: src.decimals,
					exactOut,
					fixed: ctx.catalogue.reaches(src, dst, 'fixedTo'),
					exactOutEligible: exactOut,
					fixedEligible: ctx.catalogue.reaches(src, dst, 'fixedTo'),
					source: assetOf(src),
					destination: assetOf(dst),
					// public-notes (fourth harvest): the third-party client's `limits` block (cents and amounts as strings, as its live example)
					limits: {
						orderNotionalUsd: { minCents: minCents.toString(), maxCents: maxCents.toString() },
						exactIn: { supported: true, requestAmount: requestAmount('source', src, minAmount, maxAmount, minCents, maxCents) },
						exactOut: exactOut
							? { supported: true, requestAmount: requestAmount('destination', dst, usdToUnits(minCents / 100n, dst), usdToUnits(maxCents / 100n, dst), minCents, maxCents) }
							: { supported: false, requestAmount: null },
						fiatUsd: null,
					},
				});
			}
		}
		return { generatedAt: new Date(ctx.clock.now()).toISOString(), routes };
	});
}
