/** payLink.create: POST /v1/pay-links (public-notes "Re-approvals, pay links, fee invoices"; server key): a hosted page that collects a payment. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { getNodeParameter, textParameter, type ItemWithBinary } from '../../../n8n/items';
import { explicitIdempotencyKey, isReplayed } from '../../../shared/orchestration/idempotency';
import { planPayLink } from '../../../shared/orchestration/payLinkPlan';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import {
	amountParameter,
	assetParameter,
	decimalParameter,
	idempotencyKeyOption,
	jsonOption,
} from '../../helpers/parameters';
import { qrCodeOption, withQrCodeOption } from '../../helpers/qrCode';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest } from '../../transport';
import {
	additionalFieldsOption,
	amountFormatField,
	concurrencyOption,
	destinationAssetField,
	destinationChainField,
	idempotencyKeyProperty,
	recipientAddressField,
	showFor,
} from '../common.descriptions';

const show = showFor('payLink', ['create']);
const inAsset = showFor('payLink', ['create'], { amountIn: ['asset'] });

/** An action: it fixes where payments go, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	destinationChainField(show),
	destinationAssetField(show),
	recipientAddressField(
		show,
		'Who receives every payment made through the link, on the destination chain',
	),
	dropdown(
		[
			[
				'Destination Asset',
				'asset',
				'The amount the recipient receives, in the destination asset (stablecoins: whole cents)',
			],
			['US Dollars', 'usd', 'A USD amount; each payer pays its value at the time of payment'],
		],
		{
			displayName: 'Amount In',
			name: 'amountIn',
			description: 'What the amount of the link counts in',
			displayOptions: show,
		},
	),
	...amountFormatField(inAsset),
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		required: true,
		default: '',
		placeholder: '25.00',
		description: 'What each payment through the link pays',
		displayOptions: show,
	},
	{
		displayName: 'Label',
		name: 'label',
		type: 'string',
		default: '',
		description: 'Shown on the payment page and carried by every order of the link as payLinkLabel',
		displayOptions: show,
	},
	optionsCollection(show, [
		additionalFieldsOption,
		concurrencyOption,
		idempotencyKeyProperty,
		qrCodeOption(
			'the link',
			'Whether to add a QR code of the link (shortUrl) as binary data, for a chat message, an email or a printed invoice',
		),
	]),
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
): Promise<IDataObject | ItemWithBinary> {
	const usd = getNodeParameter(this, 'amountIn', i, 'asset') === 'usd';
	const input = {
		destinationChain: textParameter(this, 'destinationChain', i),
		destinationAsset: assetParameter(this, 'destinationAsset', i),
		recipientAddress: textParameter(this, 'recipientAddress', i),
		amount: usd
			? { in: 'usd' as const, value: decimalParameter(this, 'amount', i) }
			: { in: 'asset' as const, value: amountParameter(this, i) },
		label: textParameter(this, 'label', i),
		additionalFields: jsonOption(this, i),
	};
	const explicitKey = explicitIdempotencyKey(idempotencyKeyOption(this, i));
	// the listing converts a decimal amount (required then); otherwise it only checks the destination
	const request = planPayLink(
		input,
		await catalogueFor(
			this,
			i,
			input.amount.in === 'asset' && input.amount.value.format === 'decimal',
		),
	);
	const res = await orchestrationApiRequest.call(
		this,
		'POST',
		'/v1/pay-links',
		request as IDataObject,
		{
			idempotencyKey: idempotencyKeyFor(this, i, {
				operation: 'payLink.create',
				body: request,
				explicitKey,
			}),
			itemIndex: i,
		},
	);
	const link: IDataObject = { ...res.body, ...request, replayed: isReplayed(res.headers) };
	return await withQrCodeOption(
		this,
		i,
		link,
		link.shortUrl,
		`pay-link-${String(link.shortId ?? 'link')}`,
	);
}
