// One shape of an order. The webhook `data` nests `source`, `destination`, `refund`
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
	source: {
		chain: 'sourceChain',
		asset: 'sourceAsset',
		address: 'depositAddress',
		txHash: 'sourceTxHash',
		sweepTxHash: 'sweepTxHash',
	},
	destination: {
		chain: 'destinationChain',
		asset: 'destinationAsset',
		address: 'recipientAddress',
		txHash: 'destinationTxHash',
	},
	refund: { asset: 'refundAsset', amount: 'refundAmount', txHash: 'refundTxHash' },
	// public-notes: `errorCode` on the status order, `data.error.code` in webhooks
	error: { code: 'errorCode', message: 'errorMessage' },
};

function isPlainObject(v: unknown): v is Json {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function flatName(object: string, member: string): string {
	return (
		FLAT_NAMES[object][member] ?? `${object}${member.charAt(0).toUpperCase()}${member.slice(1)}`
	);
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
	decimalsOfSymbol(
		symbol: string | undefined,
		preferredChains: Array<string | undefined>,
	): number | undefined;
}

// Amount fields by the asset they count (spec 2.10, public-notes): source, destination, fee, refund.
const SOURCE_FIELDS = ['amountIn'];
const DESTINATION_FIELDS = ['estimatedOut', 'amountOut', 'lockedMinAmountOut'];
const PAYOUT_FIELDS = ['amount', 'platformCutAmount', 'recipientAmount'];
const REPRICE_FIELDS = [
	'previousLockedMinAmountOut',
	'proposedMinAmountOut',
	'latestExpectedAmountOut',
	'approvedMinAmountOut',
];

/**
 * public-notes: each fee payout entry counts in the asset it is paid in. A `recipient_payout` is
 * the recipient's delivery (destination asset); the fee roles (`app_fee`, `platform_fee`,
 * `fee_custody`) and roles the package does not know are in the fee asset.
 */
const DESTINATION_PAYOUT_ROLES: ReadonlySet<string> = new Set(['recipient_payout']);

function nonEmptyText(v: unknown): string | undefined {
	return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Decimals of the asset each amount of an order counts in (undefined: not known to the listing). */
interface OrderAssets {
	source?: number;
	destination?: number;
	fee?: number;
	refund?: number;
}

/**
 * The decimals of one fee payout entry: the entry's own `asset` (with its `chain`) when it names
 * one, else its role's asset.
 */
function payoutDecimals(
	entry: Json,
	of: OrderAssets,
	assets: AssetDecimals,
	chains: Array<string | undefined>,
): number | undefined {
	const asset = nonEmptyText(entry.asset);
	if (asset !== undefined) {
		const chain = nonEmptyText(entry.chain);
		return chain !== undefined || asset.includes(':')
			? assets.find(chain, asset)?.decimals
			: assets.decimalsOfSymbol(asset, chains);
	}
	return typeof entry.role === 'string' && DESTINATION_PAYOUT_ROLES.has(entry.role)
		? of.destination
		: of.fee;
}

/**
 * A flat order with `...Formatted` decimals next to its amounts, fee payout entries included (each
 * in the asset it is paid in), where the listing knows the asset; an amount of an unknown asset
 * stays as is, nothing fails.
 */
export function orderWithFormattedAmounts<T extends Json>(order: T, assets: AssetDecimals): T {
	const sourceChain = nonEmptyText(order.sourceChain);
	const destinationChain = nonEmptyText(order.destinationChain);
	const chains = [sourceChain, destinationChain];
	const source = assets.find(sourceChain, nonEmptyText(order.sourceAsset))?.decimals;
	const feeAsset = nonEmptyText(order.feeAsset);
	const refundAsset = nonEmptyText(order.refundAsset);
	const of: OrderAssets = {
		source,
		destination: assets.find(destinationChain, nonEmptyText(order.destinationAsset))?.decimals,
		fee: feeAsset ? assets.decimalsOfSymbol(feeAsset, chains) : source,
		refund: refundAsset ? assets.decimalsOfSymbol(refundAsset, chains) : source,
	};
	const decimals: Record<string, number | undefined> = { refundAmount: of.refund };
	for (const f of SOURCE_FIELDS) decimals[f] = of.source;
	for (const f of DESTINATION_FIELDS) decimals[f] = of.destination;
	for (const f of FEE_FIELDS) decimals[f] = of.fee;
	const out: Json = withFormattedAmounts(order, decimals);
	// public-notes "Re-approvals": the figures of a price re-approval count in the destination asset
	if (isPlainObject(order.reprice))
		out.reprice = withFormattedAmounts(
			order.reprice,
			Object.fromEntries(REPRICE_FIELDS.map((f) => [f, of.destination])),
		);
	const payouts = order.feePayouts;
	if (isPlainObject(payouts) && Array.isArray(payouts.entries)) {
		out.feePayouts = {
			...payouts,
			entries: payouts.entries.map((e: unknown) => {
				if (!isPlainObject(e)) return e;
				const entryDecimals = payoutDecimals(e, of, assets, chains);
				return entryDecimals === undefined
					? e
					: withFormattedAmounts(
							e,
							Object.fromEntries(PAYOUT_FIELDS.map((f) => [f, entryDecimals])),
						);
			}),
		};
	}
	return out as T;
}

// ---------------------------------------------------------------- after a wait

/** Operations that answer a ZeroConf offer (Order resource). */
export const ZEROCONF_ANSWERS = ['Order > Accept ZeroConf Offer', 'Order > Decline ZeroConf Offer'];
/** Operations that answer a price re-approval; Refund only for Bitcoin-source orders (public-notes "Re-approvals"). */
export const REPRICE_ANSWERS = [
	'Order > Approve Reprice',
	'Order > Reject Reprice',
	'Order > Refund Reprice',
];

/** The error code of an order: `errorCode` on the status order, `error.code` in webhook data (public-notes). */
function errorCodeOf(order: Json): string | undefined {
	return (
		nonEmptyText(order.errorCode) ??
		(isPlainObject(order.error) ? nonEmptyText(order.error.code) : undefined)
	);
}

/** public-notes: the price lock's action when a locked price can no longer be honored. */
export const REPRICE_APPROVAL_CODE = 'reprice_approval_required';

/**
 * The price lock's mode, read leniently from both places it may be (the live answer's shape is not
 * shown): the order's `priceLock.mode` (webhook data) or a flat `priceLockMode` (the quote's name).
 */
export function priceLockModeOf(order: Json): string | undefined {
	return (
		(isPlainObject(order.priceLock) ? nonEmptyText(order.priceLock.mode) : undefined) ??
		nonEmptyText(order.priceLockMode)
	);
}

/**
 * Whether an order waits for the partner to approve a new price: its error code is
 * `reprice_approval_required` (in any status that is not final), or it is in `awaiting_approval`
 * under a price lock of mode `approval_required` without a ZeroConf offer (public-notes).
 */
export function needsRepriceApproval(
	order: Json,
	status: string | undefined,
	isFinal: boolean,
): boolean {
	if (isFinal) return false;
	if (errorCodeOf(order) === REPRICE_APPROVAL_CODE) return true;
	const offer = order.zeroconfOffer;
	return (
		status === 'awaiting_approval' &&
		(offer === undefined || offer === null) &&
		priceLockModeOf(order) === 'approval_required'
	);
}

/**
 * The order that replaced this one (public-notes: an RBF-replaced Bitcoin deposit leaves the
 * original `unfulfilled` and names its successor in `supersededByOperationId`), or undefined.
 */
export function successorOf(order: Json, status: string | undefined): string | undefined {
	if (status !== 'unfulfilled') return undefined;
	const next = nonEmptyText(order.supersededByOperationId);
	return next !== undefined && next !== order.id ? next : undefined;
}

/** What an order that ended a wait as action required waits for, and what the workflow can do about it. */
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
	const status = typeof order.status === 'string' ? order.status : undefined;
	if (needsRepriceApproval(order, status, false)) {
		const operations =
			order.sourceChain === 'bitcoin' ? REPRICE_ANSWERS : REPRICE_ANSWERS.slice(0, 2);
		const reprice = isPlainObject(order.reprice) ? order.reprice : undefined;
		const figure = (name: string) =>
			reprice
				? (nonEmptyText(reprice[`${name}Formatted`]) ?? nonEmptyText(reprice[name]))
				: undefined;
		const asset = nonEmptyText(order.destinationAsset) ?? 'the destination asset';
		const proposed = figure('proposedMinAmountOut');
		const before = figure('previousLockedMinAmountOut');
		const numbers = proposed
			? ` The service proposes a minimum of ${proposed} ${asset}${before ? ` (${before} ${asset} was locked)` : ''}.`
			: '';
		return {
			zeroconfOffer: null,
			actionRequired: {
				reason: 'repriceApproval',
				message: `The price moved and this order's price lock needs your approval of the new price before it goes on.${numbers} Answer with ${operations.join(', ')} (server key); unanswered, the deposit waits.`,
				operations,
				priceLockMode: priceLockModeOf(order) ?? null,
				errorCode: errorCodeOf(order) ?? null,
				reprice: reprice ?? null,
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
