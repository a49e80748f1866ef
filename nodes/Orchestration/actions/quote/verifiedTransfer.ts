/** A quote's deposit transfer for the output, checked against the quote and the routes listing (spec §2.2). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { itemFailure } from '../../../n8n/items';
import { checkDepositTransfers } from '../../../shared/orchestration/depositTransfer';
import type { RouteAsset } from '../../../shared/orchestration/responseSchemas';
import { catalogueFor } from '../../helpers/routes';

/**
 * `{verifiedDepositTransaction}` when the answer carries a transaction that is the deposit transfer,
 * `{}` when it carries none; any other transaction, or no routes listing to check it with, fails the item.
 */
export async function verifiedTransfer(
	ctx: IExecuteFunctions,
	i: number,
	body: IDataObject,
	source: { chain: string; asset: string; entry?: RouteAsset },
): Promise<IDataObject> {
	let check = await checkDepositTransfers(body, source.entry);
	if (check === undefined) return {};
	if (!('verified' in check) && source.entry === undefined) {
		// Not read before sending (or the entry is missing): read the listing now; an error fails the item.
		const listing = await catalogueFor(ctx, i, true);
		check = await checkDepositTransfers(body, listing.find(source.chain, source.asset));
	}
	if (check !== undefined && 'verified' in check)
		return { verifiedDepositTransaction: { ...check.verified } };
	throw itemFailure(
		ctx,
		i,
		check?.problem ?? "The quote's deposit transaction could not be verified",
		{
			description:
				'Nothing was handed on: a deposit transfer must only send amountIn to the deposit address (or, for a token, call transfer(depositAddress, amountIn) on its contract) on the source chain. Do not sign it; report the quote to the service.',
			errorCode: 'deposit_transfer_mismatch',
		},
	);
}
