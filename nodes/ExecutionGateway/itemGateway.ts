/**
 * The router's half of the operations' ports: the ItemGateway of one item (actions/types.ts), the
 * gateway modules' functions with the item's ItemReader bound. Operations reach n8n and the network
 * only through it.
 */
import type { ItemReader } from '../n8n/items';
import type { ItemGateway } from './actions/types';
import { fetchIntent, gatewayUrlOf, getNetworkInfo, publicGet, signerOf } from './gateway';
import { deriveNonce, expiryFor, rememberedIntent } from './intentIdentity';
import { pausedWarning, submit } from './intentSubmit';
import { waitForFinal, waitOptionsFor } from './intentWait';

/** The functions whose first parameter is the item's reader. */
const PER_ITEM = {
	gatewayUrlOf,
	signerOf,
	getNetworkInfo,
	publicGet,
	fetchIntent,
	deriveNonce,
	rememberedIntent,
	pausedWarning,
	submit,
	waitOptionsFor,
	waitForFinal,
};

type Bound<F> = F extends (read: ItemReader, ...args: infer A) => infer R ? (...args: A) => R : never;
/** PER_ITEM with the reader bound, plus expiryFor (no reader): the compiler checks it is an ItemGateway. */
type BoundPorts = { [K in keyof typeof PER_ITEM]: Bound<(typeof PER_ITEM)[K]> } & { expiryFor: typeof expiryFor };

export function itemGatewayOf(read: ItemReader): ItemGateway {
	const gateway: Record<string, unknown> = { expiryFor };
	for (const [name, fn] of Object.entries(PER_ITEM)) gateway[name] = (fn as (read: ItemReader) => unknown).bind(undefined, read);
	return gateway as BoundPorts satisfies ItemGateway;
}
