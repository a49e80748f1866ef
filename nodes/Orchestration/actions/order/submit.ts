/**
 * order.submit: POST /v1/orchestration/submit, a quote plus the source reference of the paid
 * deposit (public-notes.md). Client keys need orders:submit and get an order-bound read token (§5).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { rateLimitOptions } from '../../../n8n/batchOptions';
import { planSubmit, type OrderInput } from '../../../shared/orchestration/orderPlan';
import {
	additionalFieldsOption,
	concurrencyOption,
	DECIMAL_DEFAULT_VERSIONS,
	forVersions,
	idempotencyKeyOption,
	showFor,
	turnstileTokenOption,
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { quoteIdField } from './quoteIdField';

const show = showFor('order', ['submit']);
const showRef = (ref: string) => showFor('order', ['submit'], { sourceReference: [ref] });

/** An action: it moves funds (the deposit becomes an order), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	quoteIdField(show, 'The quote whose deposit was paid; only a key of the partner that created it can submit it'),
	dropdown(
		[
			['Bitcoin Transaction', 'bitcoinTxid', 'Bitcoin L1: transaction ID and output index'],
			['Lightning Payment', 'lightningReceiveRequestId', 'Lightning: receive request ID'],
			['None', 'none', 'Send only the quote ID'],
			['Spark Transfer', 'sparkTxHash', 'Spark: transfer hash and source Spark address'],
			['Transaction Hash', 'txHash', 'EVM, Solana, Tron: the deposit transaction hash'],
		],
		{ displayName: 'Source Reference', name: 'sourceReference', default: 'txHash', description: 'How the paid deposit is identified', displayOptions: show },
	),
	{ displayName: 'Transaction Hash', name: 'txHash', type: 'string', default: '', required: true, displayOptions: showRef('txHash') },
	{
		displayName: 'Source Address',
		name: 'sourceAddress',
		type: 'string',
		default: '',
		description: 'Address that paid the deposit (optional)',
		displayOptions: showRef('txHash'),
	},
	{ displayName: 'Spark Transfer Hash', name: 'sparkTxHash', type: 'string', default: '', required: true, displayOptions: showRef('sparkTxHash') },
	{
		displayName: 'Source Spark Address',
		name: 'sourceSparkAddress',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showRef('sparkTxHash'),
	},
	{ displayName: 'Bitcoin Transaction ID', name: 'bitcoinTxid', type: 'string', default: '', required: true, displayOptions: showRef('bitcoinTxid') },
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
			...idempotencyKeyOption,
			description:
				'Explicit X-Idempotency-Key. When empty the key comes from the quote ID and the deposit reference, so submitting the same payment again (in any execution) replays the first answer, a refusal included.',
		},
		turnstileTokenOption,
		...rateLimitOptions,
	]),
];

/** The source reference the user chose (public-notes: one per deposit kind). */
function readSourceReference(read: OrchestrationReader): IDataObject {
	switch (read.textParameter('sourceReference')) {
		case 'txHash':
			return { txHash: read.textParameter('txHash'), sourceAddress: read.textParameter('sourceAddress') };
		case 'sparkTxHash':
			return { sparkTxHash: read.textParameter('sparkTxHash'), sourceSparkAddress: read.textParameter('sourceSparkAddress') };
		case 'bitcoinTxid':
			return { bitcoinTxid: read.textParameter('bitcoinTxid'), bitcoinVout: read.integer('bitcoinVout') };
		case 'lightningReceiveRequestId':
			return { lightningReceiveRequestId: read.textParameter('lightningReceiveRequestId') };
		default:
			return {};
	}
}

function readSubmitInput(read: OrchestrationReader): OrderInput {
	const request = { quoteId: read.textParameter('quoteId'), ...readSourceReference(read) };
	return { request, additionalFields: read.additionalFields(), idempotencyKey: read.idempotencyKey() };
}

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	const { request, idempotencyKey } = planSubmit(readSubmitInput(read));
	const headers = read.turnstileHeaders();
	const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
		method: 'POST',
		path: '/v1/orchestration/submit',
		body: request as IDataObject,
		headers,
		// one payment, one key, whatever the execution: a re-run replays instead of submitting twice
		idempotencyKey,
		requiredScope: 'orders:submit',
		secrets: [headers?.['cf-turnstile-response']],
		itemIndex: read.itemIndex,
	});
	return res.body;
}
