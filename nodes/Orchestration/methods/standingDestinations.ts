/** Dropdowns of Standing Deposit Address > Create or Get: GET /v1/standing-deposit-addresses/destinations (public-notes). */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { STANDING_PATH } from '../../shared/orchestration/partnerPlan';
import { orchestrationApiRequest } from '../transport';

interface Destination {
	chain: string;
	asset: string;
}

async function destinations(ctx: ILoadOptionsFunctions): Promise<Destination[]> {
	const res = await orchestrationApiRequest.call(ctx, 'GET', `${STANDING_PATH}/destinations`);
	const list = Array.isArray(res.body?.destinations) ? (res.body.destinations as unknown[]) : [];
	return list.filter(
		(d): d is Destination =>
			typeof d === 'object' &&
			d !== null &&
			typeof (d as Destination).chain === 'string' &&
			typeof (d as Destination).asset === 'string',
	);
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) =>
	a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

export async function getStandingDestinationChains(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const chains = new Set((await destinations(this)).map((d) => d.chain));
	return [...chains].map((chain) => ({ name: chain, value: chain })).sort(byName);
}

export async function getStandingDestinationAssets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const chosen = this.getCurrentNodeParameter('destinationChain');
	const chain =
		typeof chosen === 'string' && chosen !== '' && !chosen.startsWith('=') ? chosen : undefined;
	const list = (await destinations(this)).filter((d) => chain === undefined || d.chain === chain);
	const seen = new Set<string>();
	const out: INodePropertyOptions[] = [];
	for (const d of list) {
		if (seen.has(d.asset)) continue;
		seen.add(d.asset);
		out.push({ name: d.asset, value: d.asset, description: `${d.chain}:${d.asset}` });
	}
	return out.sort(byName);
}
