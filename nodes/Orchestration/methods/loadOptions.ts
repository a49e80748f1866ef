/** Dropdowns from the routes listing (orchestration-service.md §2.3); a parameter set by expression is unknown here, so it narrows nothing. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { isAssetSymbol } from '../../shared/orchestration/enums';
import { ONRAMP_SOURCE } from '../../shared/orchestration/orderPlan';
import { OFFRAMP_DESTINATION } from '../../shared/orchestration/quotePlan';
import type { RouteAsset } from '../../shared/orchestration/responseSchemas';
import {
	routeListFor,
	type RouteList,
	type RoutesCatalogue,
} from '../../shared/orchestration/routesCatalogue';
import { getRoutesCatalogue } from '../helpers/routes';

/** The dropdown value of an asset: its canonical symbol, or the routing key when the symbol is not canonical (§2.1). */
function assetOptionValue(asset: RouteAsset, isCanonical: (symbol: string) => boolean): string {
	return isCanonical(asset.asset) ? asset.asset : asset.id;
}

/** An asset's label in a dropdown: its display name and symbol. */
function assetLabel(asset: RouteAsset): string {
	const symbol = asset.assetDisplaySymbol ?? asset.asset;
	const name = asset.assetDisplayName ?? symbol;
	return name === symbol ? symbol : `${name} (${symbol})`;
}

/** A plain (non-expression) text value of the node being edited (a picker's value too), or undefined. */
function chosenValue(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	const raw = ctx.getCurrentNodeParameter(name);
	const value =
		raw !== null && typeof raw === 'object' && '__rl' in raw
			? (raw as { value?: unknown }).value
			: raw;
	if (typeof value !== 'string' || value === '' || value.startsWith('=')) return undefined;
	return value;
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) =>
	a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

function chainOptions(catalogue: RoutesCatalogue, only?: Set<string>): INodePropertyOptions[] {
	return catalogue
		.chains()
		.filter((c) => !only || only.has(c.chain))
		.map((c) => ({ name: c.displayName, value: c.chain, description: c.chain }));
}

function assetOptions(assets: RouteAsset[]): INodePropertyOptions[] {
	return assets
		.map((a) => ({
			name: assetLabel(a),
			value: assetOptionValue(a, isAssetSymbol),
			description: a.id,
		}))
		.sort(byName);
}

/** The destinations of the source chosen in the node, or undefined when no source is known. */
function reachableFrom(
	catalogue: RoutesCatalogue,
	sourceChain: string | undefined,
	sourceAsset: string | undefined,
	list: RouteList,
): RouteAsset[] | undefined {
	const source = catalogue.find(sourceChain, sourceAsset);
	return source ? catalogue.reachable(source, list) : undefined;
}

function modeList(ctx: ILoadOptionsFunctions): RouteList {
	return routeListFor(chosenValue(ctx, 'amountMode'), chosenValue(ctx, 'deliveryMode'));
}

/** Sources whose plain route reaches `destinationId`. */
function sourcesReaching(catalogue: RoutesCatalogue, destinationId: string): RouteAsset[] {
	return catalogue.assets.filter((a) => catalogue.reaches(a, destinationId, 'to'));
}

export async function getSourceChains(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return chainOptions(await getRoutesCatalogue(this));
}

/** Refunds go back to the source chain only (spec §4.1: "a source-chain refund address"): the chosen one, else every source chain. */
export async function getRefundChains(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const chain = chosenValue(this, 'sourceChain');
	return chainOptions(catalogue, chain ? new Set([chain]) : undefined);
}

export async function getSourceAssets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const chain = chosenValue(this, 'sourceChain');
	return assetOptions(chain ? catalogue.entriesOnChain(chain) : catalogue.assets);
}

export async function getDestinationChains(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const reachable = reachableFrom(
		catalogue,
		chosenValue(this, 'sourceChain'),
		chosenValue(this, 'sourceAsset'),
		modeList(this),
	);
	return chainOptions(catalogue, reachable ? new Set(reachable.map((a) => a.chain)) : undefined);
}

export async function getDestinationAssets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const chain = chosenValue(this, 'destinationChain');
	const reachable =
		reachableFrom(
			catalogue,
			chosenValue(this, 'sourceChain'),
			chosenValue(this, 'sourceAsset'),
			modeList(this),
		) ?? catalogue.assets;
	return assetOptions(chain ? reachable.filter((a) => a.chain === chain) : reachable);
}

export async function getOnrampDestinationChains(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const source = catalogue.byRoutingKey(ONRAMP_SOURCE);
	return chainOptions(
		catalogue,
		source ? new Set(catalogue.reachable(source, 'to').map((a) => a.chain)) : undefined,
	);
}

export async function getOnrampDestinationAssets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const source = catalogue.byRoutingKey(ONRAMP_SOURCE);
	const chain = chosenValue(this, 'destinationChain');
	const reachable = source ? catalogue.reachable(source, 'to') : catalogue.assets;
	return assetOptions(chain ? reachable.filter((a) => a.chain === chain) : reachable);
}

export async function getOfframpSourceChains(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	return chainOptions(
		catalogue,
		new Set(sourcesReaching(catalogue, OFFRAMP_DESTINATION).map((a) => a.chain)),
	);
}

export async function getOfframpSourceAssets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	const chain = chosenValue(this, 'sourceChain');
	const sources = sourcesReaching(catalogue, OFFRAMP_DESTINATION);
	return assetOptions(chain ? sources.filter((a) => a.chain === chain) : sources);
}

/** Every asset as a routing key, for filters such as "Reachable Destination". */
export async function getAssetRoutingKeys(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalogue = await getRoutesCatalogue(this);
	return catalogue.assets
		.map((a) => ({
			name: `${assetLabel(a)} on ${a.chainDisplayName ?? a.chain}`,
			value: a.id,
			description: a.id,
		}))
		.sort(byName);
}
