/**
 * Decimal `...Formatted` fields for an order snapshot (status output): amounts in the source asset,
 * the destination asset and the fee asset, including fee payout entries (orchestration-service.md
 * §2.10). Decimals come from the routes listing; an asset it does not know stays unformatted.
 */
import type { IDataObject } from 'n8n-workflow';
import { withFormattedAmounts } from './amounts';
import type { RoutesCatalogue } from './routes';

const SOURCE_FIELDS = ['amountIn'];
const DESTINATION_FIELDS = ['estimatedOut', 'amountOut', 'lockedMinAmountOut'];
const FEE_FIELDS = ['feeAmount', 'roundingFeeAmount', 'totalFeeAmount', 'appFeeAmount'];
const PAYOUT_FIELDS = ['amount', 'platformCutAmount', 'recipientAmount'];

function str(v: unknown): string | undefined {
	return typeof v === 'string' && v !== '' ? v : undefined;
}

export function orderWithFormattedAmounts(order: IDataObject, catalogue: RoutesCatalogue): IDataObject {
	const sourceChain = str(order.sourceChain);
	const destinationChain = str(order.destinationChain);
	const source = catalogue.find(sourceChain, str(order.sourceAsset))?.decimals;
	const destination = catalogue.find(destinationChain, str(order.destinationAsset))?.decimals;
	const feeAsset = str(order.feeAsset);
	const fee = feeAsset ? catalogue.decimalsOfSymbol(feeAsset, [sourceChain, destinationChain]) : source;
	const decimals: Record<string, number | undefined> = {};
	for (const f of SOURCE_FIELDS) decimals[f] = source;
	for (const f of DESTINATION_FIELDS) decimals[f] = destination;
	for (const f of FEE_FIELDS) decimals[f] = fee;
	const out = withFormattedAmounts(order, decimals);
	const payouts = order.feePayouts as IDataObject | undefined;
	if (fee !== undefined && payouts && Array.isArray(payouts.entries)) {
		const perField = Object.fromEntries(PAYOUT_FIELDS.map((f) => [f, fee]));
		out.feePayouts = {
			...payouts,
			entries: (payouts.entries as IDataObject[]).map((e) => withFormattedAmounts(e, perField)),
		};
	}
	return out;
}
