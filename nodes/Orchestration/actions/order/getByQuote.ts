/** order.getByQuote: GET /v1/orchestration/order?quoteId= (public-notes): the quote and its order, null until a deposit is detected. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { invalidField, textParameter } from '../../../n8n/items';
import { withoutTransactions } from '../../../shared/orchestration/depositTransfer';
import { orderWithFormattedAmounts } from '../../../shared/orchestration/orderView';
import { concurrencyOption, showFor } from '../common.descriptions';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest, serviceAccess } from '../../transport';
import { quoteIdField } from './quoteIdField';

const show = showFor('order', ['getByQuote']);

export const description: INodeProperties[] = [
	quoteIdField(
		show,
		'The quote to look up; the answer says whether its deposit was paid (funded) and holds its order once it is',
	),
	{
		displayName: 'Read Token',
		name: 'readToken',
		type: 'string',
		typeOptions: { password: true },
		default: '={{ $json.readToken }}',
		description:
			'Token returned by Create Quote. Client-key reads need it. It is a bearer-like token: pass it on, do not publish it.',
		displayOptions: showFor('order', ['getByQuote'], { authentication: ['clientKey'] }),
	},
	optionsCollection(show, [concurrencyOption]),
];

function isObject(v: unknown): v is IDataObject {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const quoteId = textParameter(this, 'quoteId', i);
	if (quoteId === '') throw invalidField(this, i, 'quoteId', 'is required');
	const readToken = (await serviceAccess(this)).isClientKey
		? textParameter(this, 'readToken', i) || undefined
		: undefined;
	const res = await orchestrationApiRequest.call(
		this,
		'GET',
		'/v1/orchestration/order',
		undefined,
		{
			qs: { quoteId },
			headers: readToken ? { 'X-Read-Token': readToken } : undefined,
			secrets: [readToken],
			hints: {
				not_found:
					'No quote with this ID exists for this partner (an unpaid quote is not an error here: it answers funded: false).',
			},
			itemIndex: i,
		},
	);
	// The answer does not say which source the quote pays from, so a deposit transaction in it cannot be
	// verified: it is withheld (Quote > Create outputs the verified one).
	const { body, removed } = withoutTransactions(isObject(res.body) ? res.body : {});
	const order = isObject(body.order) ? body.order : null;
	const catalogue = order ? await catalogueFor(this, i, false) : undefined;
	const out: IDataObject = {
		...(body as IDataObject),
		...(removed.length > 0 ? { withheldTransactions: removed } : {}),
		order: order && catalogue ? orderWithFormattedAmounts(order, catalogue) : order,
		funded: order !== null,
	};
	// The read token travels on so the next node can read this quote or its order again by expression.
	if (readToken) out.readToken = readToken;
	return out;
}
