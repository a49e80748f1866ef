/**
 * order.getByQuote: GET /v1/orchestration/order?quoteId= (public-notes): the quote with its order,
 * `order: null` until a deposit is detected. "Is this quote funded yet" without an error for an
 * unpaid quote (Get Status by quote ID answers 404 then). Client keys send the read token (§5).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { catalogueFor, orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { optionsCollection } from '../../../n8n/descriptions';
import { orderWithFormattedAmounts } from '../../../shared/orchestration/orderView';
import { concurrencyOption, showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { quoteIdField } from './quoteIdField';
import { withoutTransactions } from '../../../shared/orchestration/depositTransfer';

const show = showFor('order', ['getByQuote']);

export const description: INodeProperties[] = [
	quoteIdField(show, 'The quote to look up; the answer says whether its deposit was paid (funded) and holds its order once it is'),
	{
		displayName: 'Read Token',
		name: 'readToken',
		type: 'string',
		typeOptions: { password: true },
		default: '={{ $json.readToken }}',
		description: 'Token returned by Create Quote. Client-key reads need it. It is a bearer-like token: pass it on, do not publish it.',
		displayOptions: showFor('order', ['getByQuote'], { authentication: ['clientKey'] }),
	},
	optionsCollection(show, [concurrencyOption]),
];

function isObject(v: unknown): v is IDataObject {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const quoteId = read.textParameter('quoteId');
	if (quoteId === '') throw read.fail('quoteId', 'is required');
	const readToken = access.isClientKey ? read.textParameter('readToken') || undefined : undefined;
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'GET',
		path: '/v1/orchestration/order',
		qs: { quoteId },
		headers: readToken ? { 'X-Read-Token': readToken } : undefined,
		requiredScope: 'orders:read',
		secrets: [readToken],
		hints: { not_found: 'No quote with this ID exists for this partner (an unpaid quote is not an error here: it answers funded: false).' },
		itemIndex: read.itemIndex,
	});
	// The answer does not say which source the quote pays from, so a deposit transaction in it cannot be
	// verified: it is withheld (Quote > Create outputs the verified one).
	const { body, removed } = withoutTransactions(isObject(res.body) ? res.body : {});
	const order = isObject(body.order) ? body.order : null;
	const catalogue = order ? await catalogueFor(read, access, false) : undefined;
	const out: IDataObject = { ...(body as IDataObject), ...(removed.length > 0 ? { withheldTransactions: removed } : {}), order: order && catalogue ? orderWithFormattedAmounts(order, catalogue) : order, funded: order !== null };
	// The read token travels on so the next node can read this quote or its order again by expression.
	if (readToken) out.readToken = readToken;
	return out;
}
