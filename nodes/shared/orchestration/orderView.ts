// One shape of an order (issue 21, 22). The webhook `data` nests `source`, `destination`, `refund`
// and `error` (public-notes "Webhooks"), the status `order` keeps them flat (spec 2.10, 4.6): the
// flat order is what a flow maps, whether the order came by webhook, stream or status read. The
// `...Formatted` decimals come from a routes listing the caller already has (spec 2.3 `decimals`).
import { FEE_FIELDS, withFormattedAmounts } from './amounts';

type Json = Record<string, unknown>;

/**
 * Flat names of the nested webhook members. `source.address` is assumed to be the deposit address
 * (the one its `sweepTxHash` sweeps) and `destination.address` the recipient: the live docs show
 * the nesting, not the flat names. Members not listed here become `<object><Member>`.
 */
const FLAT_NAMES: Record<string, Record<string, string>> = {
	source: { chain: 'sourceChain', asset: 'sourceAsset', address: 'depositAddress', txHash: 'sourceTxHash', sweepTxHash: 'sweepTxHash' },
	destination: { chain: 'destinationChain', asset: 'destinationAsset', address: 'recipientAddress', txHash: 'destinationTxHash' },
	refund: { asset: 'refundAsset', amount: 'refundAmount', txHash: 'refundTxHash' },
	// public-notes: `errorCode` on the status order, `data.error.code` in webhooks
	error: { code: 'errorCode', message: 'errorMessage' },
};

function isPlainObject(v: unknown): v is Json {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function flatName(object: string, member: string): string {
	return FLAT_NAMES[object][member] ?? `${object}${member.charAt(0).toUpperCase()}${member.slice(1)}`;
}

/**
 * The order in the status (flat) shape. Nested members are lifted to their flat names; a flat
 * member the order already has wins (an order that is flat already comes out unchanged). Every
 * other member, `priceLock` included, is kept as is.
 */
export function flatOrderOf(data: Json): Json {
	const out: Json = {};
	const lifted: Json = {};
	for (const [key, value] of Object.entries(data)) {
		if (key in FLAT_NAMES && isPlainObject(value)) {
			for (const [member, v] of Object.entries(value)) lifted[flatName(key, member)] = v;
		} else out[key] = value;
	}
	for (const [key, value] of Object.entries(lifted)) if (!(key in out)) out[key] = value;
	return out;
}

/** What the routes listing tells about an asset: its `decimals` (spec 2.3). */
export interface AssetDecimals {
	/** The entry of an asset input on a chain (symbol, routing key or alias), or undefined. */
	find(chain: string | undefined, assetInput: string | undefined): { decimals: number } | undefined;
	/** Decimals of a bare symbol seen from these chains, when they are unambiguous. */
	decimalsOfSymbol(symbol: string | undefined, preferredChains: Array<string | undefined>): number | undefined;
}

// Amount fields by the asset they count (spec 2.10, public-notes): source, destination, fee, refund.
const SOURCE_FIELDS = ['amountIn'];
const DESTINATION_FIELDS = ['estimatedOut', 'amountOut', 'lockedMinAmountOut'];
const PAYOUT_FIELDS = ['amount', 'platformCutAmount', 'recipientAmount'];

function nonEmptyText(v: unknown): string | undefined {
	return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * A flat order with `...Formatted` decimals next to its amounts, fee payout entries included, where
 * the listing knows the asset; an amount of an unknown asset stays as is, nothing fails.
 */
export function orderWithFormattedAmounts<T extends Json>(order: T, assets: AssetDecimals): T {
	const sourceChain = nonEmptyText(order.sourceChain);
	const destinationChain = nonEmptyText(order.destinationChain);
	const chains = [sourceChain, destinationChain];
	const source = assets.find(sourceChain, nonEmptyText(order.sourceAsset))?.decimals;
	const destination = assets.find(destinationChain, nonEmptyText(order.destinationAsset))?.decimals;
	const feeAsset = nonEmptyText(order.feeAsset);
	const fee = feeAsset ? assets.decimalsOfSymbol(feeAsset, chains) : source;
	const refundAsset = nonEmptyText(order.refundAsset);
	const decimals: Record<string, number | undefined> = {
		refundAmount: refundAsset ? assets.decimalsOfSymbol(refundAsset, chains) : source,
	};
	for (const f of SOURCE_FIELDS) decimals[f] = source;
	for (const f of DESTINATION_FIELDS) decimals[f] = destination;
	for (const f of FEE_FIELDS) decimals[f] = fee;
	const out: Json = withFormattedAmounts(order, decimals);
	const payouts = order.feePayouts;
	if (fee !== undefined && isPlainObject(payouts) && Array.isArray(payouts.entries)) {
		const perField = Object.fromEntries(PAYOUT_FIELDS.map((f) => [f, fee]));
		out.feePayouts = {
			...payouts,
			entries: payouts.entries.map((e: unknown) => (isPlainObject(e) ? withFormattedAmounts(e, perField) : e)),
		};
	}
	return out as T;
}

// ---------------------------------------------------------------- after a wait

/** Operations that answer a ZeroConf offer (Order resource, issue 21). */
export const ZEROCONF_ANSWERS = ['Order > Accept ZeroConf Offer', 'Order > Decline ZeroConf Offer'];

/** What an order in `awaiting_approval` waits for, and what the workflow can do about it. */
export function actionRequiredOf(order: Json): Json {
	const offer = order.zeroconfOffer;
	if (offer !== undefined && offer !== null) {
		return {
			zeroconfOffer: offer,
			actionRequired: {
				reason: 'zeroconfOffer',
				message: `A ZeroConf offer waits for your answer: accept it with ${ZEROCONF_ANSWERS[0]} or decline it with ${ZEROCONF_ANSWERS[1]} (server key). Unanswered, the order waits for one on-chain confirmation.`,
				operations: ZEROCONF_ANSWERS,
			},
		};
	}
	return {
		zeroconfOffer: null,
		actionRequired: {
			reason: 'operatorHold',
			message:
				'The order is held for approval without a ZeroConf offer (an operator hold): contact the service, then read the status again.',
			operations: [],
		},
	};
}

/** The fields a newest-version wait adds: how it followed the order, and why it fell back to polling. */
export function followedBy(result: { via: string; fallback?: string }): Json {
	return {
		waitedVia: result.via,
		...(result.fallback ? { waitFallback: result.fallback } : {}),
	};
}
