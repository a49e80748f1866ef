/** partner.getFeeInvoices: GET /v1/partner/dashboard/fee-invoices (public-notes; server key; the answer's shape is not shown: read leniently, every page). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ItemError } from '../../../n8n/errors';
import { getNodeParameter } from '../../../n8n/items';
import { smallestUnitToDecimal } from '../../../shared/orchestration/amounts';
import {
	FEE_INVOICES_PAGE_MAX,
	FEE_INVOICES_PATH,
	feeInvoicePageOf,
	nextPageAfter,
	type PageRequest,
} from '../../../shared/orchestration/partnerPlan';
import { orchestrationApiRequest } from '../../transport';
import { limitField, returnAllField, showFor } from '../common.descriptions';

const show = showFor('partner', ['getFeeInvoices']);

export const description: INodeProperties[] = [
	{
		displayName:
			'Partners billed by invoice see feeAmount "0" on their quotes: what they owe is in these invoices. The shape of this answer is not shown in the service\'s docs; every invoice is passed on as the service sends it.',
		name: 'feeInvoicesNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	returnAllField(show),
	limitField(show),
];

/** `amountFormatted` next to an invoice's amount when it names its decimals. */
function withFormattedAmount(invoice: IDataObject): IDataObject {
	const { amount, decimals } = invoice;
	if (
		typeof amount !== 'string' ||
		!/^[0-9]{1,78}$/.test(amount) ||
		typeof decimals !== 'number' ||
		!Number.isSafeInteger(decimals) ||
		decimals < 0 ||
		decimals > 36
	)
		return invoice;
	return { ...invoice, amountFormatted: smallestUnitToDecimal(amount, decimals) };
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const wanted =
		getNodeParameter(this, 'returnAll', i, false) === true
			? undefined
			: Math.max(1, Number(getNodeParameter(this, 'limit', i, 50)) || 50);
	const out: IDataObject[] = [];
	const seen = new Set<string>();
	let page: PageRequest | undefined = {
		limit: wanted === undefined ? FEE_INVOICES_PAGE_MAX : Math.min(FEE_INVOICES_PAGE_MAX, wanted),
		offset: 0,
	};
	while (page !== undefined) {
		const res = await orchestrationApiRequest.call(this, 'GET', FEE_INVOICES_PATH, undefined, {
			qs: { limit: page.limit, offset: page.offset },
			itemIndex: i,
		});
		const read = feeInvoicePageOf(res.body);
		if (read === undefined)
			throw new ItemError(this.getNode(), 'The fee invoices answer has no list of invoices', {
				itemIndex: i,
				description: `GET ${FEE_INVOICES_PATH} answered neither a list nor an object with one.`,
			});
		// a service that ignores offset answers the same page again: stop rather than read it forever
		const fresh = read.invoices.filter((inv) => typeof inv.id !== 'string' || !seen.has(inv.id));
		for (const inv of fresh) if (typeof inv.id === 'string') seen.add(inv.id);
		out.push(...(fresh as IDataObject[]));
		if (fresh.length === 0) break;
		page = nextPageAfter({
			wanted,
			pageMax: FEE_INVOICES_PAGE_MAX,
			page,
			received: out.length,
			pageLength: read.invoices.length,
			nextOffset: read.nextOffset,
		});
	}
	return (wanted === undefined ? out : out.slice(0, wanted)).map(withFormattedAmount);
}
