/** quote.create: POST /v1/orchestration/quote (orchestration-service.md §4.1). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { completeQuote, planQuote, quoteOutput, type QuoteInput } from '../../../shared/orchestration/quotePlan';
import {
	amountField,
	quoteCreationOptions,
	quoteRouteFields,
	recipientAddressField,
	refundChainOption,
	showFor,
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { catalogueFor, idempotencyKeyFor, orchestrationRequest } from '../../service';
import type { OperationEnv } from '../types';

const show = showFor('quote', ['create']);

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out. Stablecoin Exact Out amounts must be whole cents.'),
	recipientAddressField(
		show,
		'Destination address. Solana tokens take the owner address; Lightning takes a Lightning address or a BOLT11 invoice.',
	),
	optionsCollection(show, [
		...quoteCreationOptions,
		{
			displayName: 'Affiliate IDs',
			name: 'affiliateIds',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			description: 'Registered affiliates (1 to 16), optionally with a fee override (server keys only). Not together with App Fees.',
			options: [
				{
					displayName: 'Affiliate',
					name: 'affiliate',
					values: [
						{ displayName: 'Affiliate ID', name: 'affiliateId', type: 'string', default: '' },
						{
							displayName: 'Fee Override (Bps)',
							name: 'feeBps',
							type: 'string',
							default: '',
							description: 'Leave empty to use the fee registered for the affiliate',
						},
					],
				},
			],
		},
		{
			displayName: 'App Fees',
			name: 'appFees',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			description: 'Inline app fees (1 to 16 entries); server keys only. Not together with Affiliate IDs.',
			options: [
				{
					displayName: 'Fee',
					name: 'fee',
					values: [
						{ displayName: 'Recipient', name: 'recipient', type: 'string', default: '' },
						{ displayName: 'Fee (Bps)', name: 'feeBps', type: 'number', default: 0 },
						{ displayName: 'Affiliate ID', name: 'affiliateId', type: 'string', default: '' },
					],
				},
			],
		},
		{
			displayName: 'Amountless Lightning Invoice',
			name: 'amountlessInvoice',
			type: 'boolean',
			default: false,
			description:
				'Whether to mint an amountless invoice (Exact In, Variable, to lightning:BTC only): the amount only prices an indicative size and the order runs on the amount actually paid. Sent as amountlessInvoice, a name the spec does not show (unconfirmed); if the service names it otherwise, pass that name in Additional Body Fields.',
		},
		{
			displayName: 'Include Calldata',
			name: 'includeCalldata',
			type: 'boolean',
			default: false,
			description: 'Whether to return an unsigned deposit transfer (EVM native and ERC-20 sources only)',
		},
		refundChainOption,
		{
			displayName: 'ZeroConf Offer (Bitcoin Sources)',
			name: 'zeroconfEnabled',
			type: 'options',
			options: [
				{ name: 'Opt In', value: 'optIn', description: 'Send zeroconfEnabled: true' },
				{ name: 'Opt Out', value: 'optOut', description: 'Send zeroconfEnabled: false' },
				{ name: 'Service Default', value: 'default', description: 'Send nothing: the service decides' },
			],
			default: 'default',
			description:
				'Whether a Bitcoin L1 deposit may get a ZeroConf offer: the order then waits in awaiting_approval until Order > Accept or Decline ZeroConf Offer answers it. Sent as zeroconfEnabled, a name from third-party code only (unconfirmed); newer service docs make the offer per deposit without this flag. Other source chains ignore it.',
		},
	]),
];

/** The ZeroConf opt-in as sent (public-notes `zeroconfEnabled`, unconfirmed); undefined leaves it to the service. */
function zeroconfChoice(read: OrchestrationReader): boolean | undefined {
	const choice = read.options.zeroconfEnabled;
	return choice === 'optIn' ? true : choice === 'optOut' ? false : undefined;
}

/** "App Fees" and "Affiliate IDs" of the options as §4.1 lists them; undefined when empty. */
function readFeeFields(read: OrchestrationReader): { appFees?: IDataObject[]; affiliateIds?: Array<string | IDataObject> } {
	const fees = ((read.options.appFees as IDataObject | undefined)?.fee as IDataObject[] | undefined) ?? [];
	const affiliates = ((read.options.affiliateIds as IDataObject | undefined)?.affiliate as IDataObject[] | undefined) ?? [];
	return {
		appFees: fees.length > 0 ? fees.map((fee, n) => readAppFee(read, fee, `appFees[${n}]`)) : undefined,
		affiliateIds: affiliates.length > 0 ? affiliates.map((entry, n) => readAffiliate(read, entry, `affiliateIds[${n}]`)) : undefined,
	};
}

function readAppFee(read: OrchestrationReader, fee: IDataObject, at: string): IDataObject {
	const feeBps = read.optionInteger('feeBps', fee, `${at}.feeBps`);
	if (feeBps === undefined) throw read.fail(`${at}.feeBps`, 'is required');
	const affiliateId = read.optionText('affiliateId', fee, `${at}.affiliateId`);
	const recipient = read.optionText('recipient', fee, `${at}.recipient`) ?? '';
	return { recipient, feeBps, ...(affiliateId ? { affiliateId } : {}) };
}

function readAffiliate(read: OrchestrationReader, entry: IDataObject, at: string): string | IDataObject {
	const affiliateId = read.optionText('affiliateId', entry, `${at}.affiliateId`) ?? '';
	const feeBps = read.optionInteger('feeBps', entry, `${at}.feeBps`);
	return feeBps === undefined ? affiliateId : { affiliateId, feeBps };
}

/** The item's quote request, read once; checked by planQuote. */
function readQuoteInput(read: OrchestrationReader, isClientKey: boolean): QuoteInput {
	const amount = read.amount();
	const request = {
		...read.quoteRoute(),
		recipientAddress: read.textParameter('recipientAddress'),
		includeCalldata: read.options.includeCalldata === true ? true : undefined,
		amountlessInvoice: read.options.amountlessInvoice === true ? true : undefined,
		affiliateId: read.optionText('affiliateId'),
		refundAddress: read.optionText('refundAddress'),
		refundChain: read.optionText('refundChain'),
		slippageBps: read.optionInteger('slippageBps'),
		zeroconfEnabled: zeroconfChoice(read),
		...readFeeFields(read),
	};
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey: read.idempotencyKey(), isClientKey };
}

/** Read, plan (every check before the first request), fetch the routes listing, send, shape. */
export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { access }: OperationEnv): Promise<IDataObject> {
	const plan = read.plan(() => planQuote(readQuoteInput(read, access.isClientKey)));
	const catalogue = await catalogueFor(read, access, plan.routes === 'required');
	const { request, source, destination } = read.plan(() => completeQuote(plan, catalogue));
	const res = await orchestrationRequest<IDataObject>(this, access, {
		method: 'POST',
		path: '/v1/orchestration/quote',
		body: request as IDataObject,
		idempotencyKey: idempotencyKeyFor(read, { operation: 'quote.create', body: request, explicitKey: plan.idempotencyKey }),
		itemIndex: read.itemIndex,
		requiredScope: 'orders:quote',
	});
	return quoteOutput(res.body, { catalogue, source, destination });
}
