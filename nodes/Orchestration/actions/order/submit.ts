/** order.submit: POST /v1/orchestration/submit, a quote and the source reference of its paid deposit (public-notes; client keys get an order-bound read token, §5). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { integerParameter, textParameter } from '../../../n8n/items';
import { rateLimitOptions } from '../../../n8n/pacing';
import { planSubmit, type OrderInput } from '../../../shared/orchestration/orderPlan';
import {
	additionalFieldsOption,
	concurrencyOption,
	DECIMAL_DEFAULT_VERSIONS,
	forVersions,
	idempotencyKeyProperty,
	showFor,
	turnstileTokenOption,
} from '../common.descriptions';
import { idempotencyKeyOption, jsonOption, turnstileHeaders } from '../../helpers/parameters';
import { orchestrationApiRequest } from '../../transport';
import { quoteIdField } from './quoteIdField';

const show = showFor('order', ['submit']);
const showRef = (ref: string) => showFor('order', ['submit'], { sourceReference: [ref] });

/** An action: it moves funds (the deposit becomes an order), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	quoteIdField(
		show,
		'The quote whose deposit was paid; only a key of the partner that created it can submit it',
	),
	dropdown(
		[
			['Bitcoin Transaction', 'bitcoinTxid', 'Bitcoin L1: transaction ID and output index'],
			['Lightning Payment', 'lightningReceiveRequestId', 'Lightning: receive request ID'],
			['None', 'none', 'Send only the quote ID'],
			['Spark Transfer', 'sparkTxHash', 'Spark: transfer hash and source Spark address'],
			['Transaction Hash', 'txHash', 'EVM, Solana, Tron: the deposit transaction hash'],
		],
		{
			displayName: 'Source Reference',
			name: 'sourceReference',
			default: 'txHash',
			description: 'How the paid deposit is identified',
			displayOptions: show,
		},
	),
	{
		displayName: 'Transaction Hash',
		name: 'txHash',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showRef('txHash'),
	},
	{
		displayName: 'Source Address',
		name: 'sourceAddress',
		type: 'string',
		default: '',
		description: 'Address that paid the deposit (optional)',
		displayOptions: showRef('txHash'),
	},
	{
		displayName: 'Spark Transfer Hash',
		name: 'sparkTxHash',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showRef('sparkTxHash'),
	},
	{
		displayName: 'Source Spark Address',
		name: 'sourceSparkAddress',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showRef('sparkTxHash'),
	},
	{
		displayName: 'Bitcoin Transaction ID',
		name: 'bitcoinTxid',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showRef('bitcoinTxid'),
	},
	{
		displayName: 'Bitcoin Output Index',
		name: 'bitcoinVout',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		displayOptions: forVersions(showRef('bitcoinTxid'), [1]),
	},
	{
		// version 2: empty by default and then not sent (public-notes: bitcoinTxid + bitcoinVout)
		displayName: 'Bitcoin Output Index',
		name: 'bitcoinVout',
		type: 'string',
		default: '',
		placeholder: '0',
		description: 'Index of the output that paid the deposit address; sent only when given',
		displayOptions: forVersions(showRef('bitcoinTxid'), DECIMAL_DEFAULT_VERSIONS),
	},
	{
		displayName: 'Lightning Receive Request ID',
		name: 'lightningReceiveRequestId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showRef('lightningReceiveRequestId'),
	},
	optionsCollection(show, [
		additionalFieldsOption,
		concurrencyOption,
		{
			...idempotencyKeyProperty,
			description:
				'Explicit X-Idempotency-Key. When empty the key comes from the quote ID and the deposit reference, so submitting the same payment again (in any execution) replays the first answer, a refusal included.',
		},
		turnstileTokenOption,
		...rateLimitOptions,
	]),
];

/** The source reference the user chose (public-notes: one per deposit kind). */
function sourceReference(ctx: IExecuteFunctions, i: number): IDataObject {
	const text = (name: string) => textParameter(ctx, name, i);
	switch (text('sourceReference')) {
		case 'txHash':
			return { txHash: text('txHash'), sourceAddress: text('sourceAddress') };
		case 'sparkTxHash':
			return { sparkTxHash: text('sparkTxHash'), sourceSparkAddress: text('sourceSparkAddress') };
		case 'bitcoinTxid':
			return {
				bitcoinTxid: text('bitcoinTxid'),
				bitcoinVout: integerParameter(ctx, 'bitcoinVout', i),
			};
		case 'lightningReceiveRequestId':
			return { lightningReceiveRequestId: text('lightningReceiveRequestId') };
		default:
			return {};
	}
}

function submitInput(ctx: IExecuteFunctions, i: number): OrderInput {
	const request = { quoteId: textParameter(ctx, 'quoteId', i), ...sourceReference(ctx, i) };
	return {
		request,
		additionalFields: jsonOption(ctx, i),
		idempotencyKey: idempotencyKeyOption(ctx, i),
	};
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { request, idempotencyKey } = planSubmit(submitInput(this, i));
	const headers = turnstileHeaders(this, i);
	const res = await orchestrationApiRequest.call(
		this,
		'POST',
		'/v1/orchestration/submit',
		request as IDataObject,
		{
			headers,
			// one payment, one key, whatever the execution: a re-run replays instead of submitting twice
			idempotencyKey,
			secrets: [headers?.['cf-turnstile-response']],
			itemIndex: i,
		},
	);
	return res.body;
}
