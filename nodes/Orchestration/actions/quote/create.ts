/** quote.create: POST /v1/orchestration/quote (orchestration-service.md §4.1). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { catalogueFor, orchestrationRequest, type ServiceAccess } from '../../../n8n/orchestrationClient';
import { optionsCollection } from '../../../n8n/descriptions';
import { withQrCode } from '../../../n8n/binaryOutput';
import type { ItemWithBinary } from '../../../n8n/items';
import type { QrFormat } from '../../../shared/qrImage';
import { isReplayed, requoteIdempotencyKey } from '../../../shared/orchestration/idempotency';
import { EXPIRY_MARGIN_DEFAULT_SECONDS, EXPIRY_MARGIN_MAX_SECONDS } from '../../../shared/orchestration/schemas';
import {
	completeQuote,
	planQuote,
	quoteOutput,
	unpayableQuote,
	type PlannedQuote,
	type QuoteInput,
} from '../../../shared/orchestration/quotePlan';
import {
	affiliateIdOption,
	affiliateIdsOption,
	affiliatePickerOption,
	amountField,
	forVersions,
	QUOTE_CONCURRENCY,
	quoteOperationOptions,
	quoteRouteFields,
	recipientAddressField,
	REFUND_ON_TOP_VERSIONS,
	refundAddressFields,
	refundAddressOption,
	refundChainOption,
	showFor,
} from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { idempotencyKeyFor } from '../../idempotencyKey';
import type { RoutesCatalogue } from '../../../shared/orchestration/routesCatalogue';
import { verifiedTransfer } from './verifiedTransfer';

const show = showFor('quote', ['create']);

/** Items in flight when "Concurrency" is not set: quotes move no funds. */
export const defaultConcurrency = QUOTE_CONCURRENCY;

/** Node versions that keep "Refund Address" under Options (before REFUND_ON_TOP_VERSIONS). */
const REFUND_IN_OPTIONS_VERSIONS = [{ _cnd: { lt: 3 } }];

/** At most this many re-quotes per item: each replaces a replayed, expired quote (Retry On Fail walks the same keys). */
const MAX_REQUOTES = 3;

const expiryOptions: INodeProperties[] = [
	{
		displayName: 'Expiry Margin (Seconds)',
		name: 'expiryMarginSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: EXPIRY_MARGIN_MAX_SECONDS },
		default: EXPIRY_MARGIN_DEFAULT_SECONDS,
		description:
			'A quote is firm for 2 minutes. One with less time left than this (or expired, as a replayed answer can be) fails the item instead of being returned as payable.',
	},
	{
		displayName: 'QR Code',
		name: 'qrCode',
		type: 'options',
		options: [
			{ name: 'None', value: 'none' },
			{ name: 'PNG Image', value: 'png', description: 'A 1-bit PNG of the payment URI in the binary field qrCode' },
			{ name: 'SVG Image', value: 'svg', description: 'A scalable SVG of the payment URI in the binary field qrCode' },
		],
		default: 'none',
		description: 'Whether to add a QR code of "paymentUri" as binary data (for a chat message or an email); none when the deposit has no payment URI',
	},
	{
		displayName: 'Re-Quote When Expired',
		name: 'requoteWhenExpired',
		type: 'boolean',
		default: false,
		description:
			'Whether a replayed quote that expired (same idempotency key as an earlier run) is replaced by a new quote, under a key derived from the old one and this execution, so Retry On Fail still replays it',
	},
];

/** Options of Quote > Create in every node version: app fees, the deposit's shape, the refund chain, ZeroConf. */
const feeAndDepositOptions: INodeProperties[] = [
	{
		displayName: 'App Fee Form',
		name: 'appFeeForm',
		type: 'options',
		options: [
			{ name: 'Live Service Form', value: 'fee', description: 'Each app fee sent as {recipient, fee}: the form the live service takes in requests (fee in basis points)' },
			{ name: 'Spec Form', value: 'feeBps', description: 'Each app fee sent as {recipient, feeBps, affiliateId?}: the form of the service specification' },
		],
		default: 'feeBps',
		description: 'How the entries of App Fees are written in the request. Raw entries in Additional Body Fields may use either form.',
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
		description:
			'Whether to return an unsigned deposit transfer (EVM native and ERC-20 sources only). It is checked against the quote and the routes listing (it must only fund the deposit) and output as verifiedDepositTransaction; any other transaction fails the item.',
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
];

/** An action: it fixes where a deposit goes and the fees it pays, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(show, 'Source amount, or the destination amount with Exact Out. Stablecoin Exact Out amounts must be whole cents.'),
	recipientAddressField(
		show,
		'Destination address. Solana tokens take the owner address; Lightning takes a Lightning address or a BOLT11 invoice.',
	),
	...refundAddressFields(show),
	...[REFUND_IN_OPTIONS_VERSIONS, REFUND_ON_TOP_VERSIONS].map((versions) =>
		optionsCollection(forVersions(show, versions), createOptions(versions === REFUND_IN_OPTIONS_VERSIONS)),
	),
];

/** The options of Quote > Create; before node version 3 with "Refund Address" and a plain "Affiliate ID", from 3 on with the affiliate picker. */
function createOptions(beforeVersion3: boolean): INodeProperties[] {
	const shared = beforeVersion3
		? quoteOperationOptions
		: quoteOperationOptions.filter((o) => o !== refundAddressOption).map((o) => (o === affiliateIdOption ? affiliatePickerOption : o));
	return [
		...shared,
		...expiryOptions,
		affiliateIdsOption('Registered affiliates (1 to 16), optionally with a fee override (server keys only). Not together with App Fees.'),
		...feeAndDepositOptions,
	];
}

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

/** One App Fees row in the chosen form: the spec's `{recipient, feeBps, affiliateId?}` or the live service's `{recipient, fee}`. */
function readAppFee(read: OrchestrationReader, fee: IDataObject, at: string): IDataObject {
	const feeBps = read.optionInteger('feeBps', fee, `${at}.feeBps`);
	if (feeBps === undefined) throw read.fail(`${at}.feeBps`, 'is required');
	const affiliateId = read.optionText('affiliateId', fee, `${at}.affiliateId`);
	const recipient = read.optionText('recipient', fee, `${at}.recipient`) ?? '';
	const amount = read.options.appFeeForm === 'fee' ? { fee: feeBps } : { feeBps };
	return { recipient, ...amount, ...(affiliateId ? { affiliateId } : {}) };
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
		affiliateId: read.optionText('affiliateId', pickedValues(read.options)),
		// Top level from node version 3; a value under Options (versions 1 and 2, or pasted JSON) still counts.
		refundAddress: read.textParameter('refundAddress') || read.optionText('refundAddress'),
		refundChain: read.optionText('refundChain'),
		slippageBps: read.optionInteger('slippageBps'),
		zeroconfEnabled: zeroconfChoice(read),
		...readFeeFields(read),
	};
	const idempotencyKey = read.idempotencyKey();
	return { request, amount, additionalFields: read.additionalFields(), idempotencyKey, isClientKey, refundRule: true };
}

/** The options with a picker's value in place of the picker (the Affiliate ID of node version 3). */
function pickedValues(options: IDataObject): IDataObject {
	const picker = options.affiliateId as IDataObject | undefined;
	return picker !== null && typeof picker === 'object' && '__rl' in picker ? { ...options, affiliateId: picker.value } : options;
}

interface Sending {
	access: ServiceAccess;
	planned: PlannedQuote;
	catalogue?: RoutesCatalogue;
	key: string;
	marginSeconds: number;
	requote: boolean;
}

/**
 * Sends the quote and returns it only while payable: a replayed answer is marked, an expired one (or
 * one inside the margin) fails the item with the next step, or is replaced under a derived key.
 */
async function payableQuote(read: OrchestrationReader, sending: Sending): Promise<IDataObject> {
	const { access, planned, catalogue, marginSeconds, requote } = sending;
	let key = sending.key;
	let requotedFrom: unknown;
	for (let requotes = 0; ; requotes++) {
		const res = await orchestrationRequest<IDataObject>(read.ctx, access, {
			method: 'POST',
			path: '/v1/orchestration/quote',
			body: planned.request as IDataObject,
			idempotencyKey: key,
			requiredScope: 'orders:quote',
			itemIndex: read.itemIndex,
		});
		const replayed = isReplayed(res.headers);
		const problem = unpayableQuote(res.body, { replayed, marginSeconds });
		if (problem === undefined) {
			const out: IDataObject = quoteOutput(res.body, { catalogue, source: planned.source, destination: planned.destination });
			const { sourceChain, sourceAsset } = planned.request as Record<string, string>;
			const transfer = await verifiedTransfer(read, access, res.body, { chain: sourceChain, asset: sourceAsset, entry: planned.source });
			return { ...out, ...transfer, replayed, ...(requotedFrom !== undefined ? { requotedFrom } : {}) };
		}
		if (!(requote && problem.requotable && requotes < MAX_REQUOTES)) {
			throw read.failure(problem.message, { description: problem.nextStep, errorCode: 'quote_expired' });
		}
		requotedFrom = res.body.quoteId;
		key = requoteIdempotencyKey(key, read.ctx.getExecutionId());
	}
}

/** The QR code of the quote's payment URI as the item's binary field `qrCode`; the quote alone when it has no URI. */
async function withPaymentQrCode(read: OrchestrationReader, quote: IDataObject, format: QrFormat): Promise<IDataObject | ItemWithBinary> {
	if (typeof quote.paymentUri !== 'string') return quote;
	return await withQrCode(read.ctx, quote, { text: quote.paymentUri, format, field: 'qrCode', baseName: `quote-${String(quote.quoteId ?? 'deposit')}` });
}

/** Read, plan (every check before the first request), fetch the routes listing, send, shape. */
export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject | ItemWithBinary> {
	const plan = planQuote(readQuoteInput(read, access.isClientKey));
	const marginSeconds = read.expiryMargin();
	const requote = read.options.requoteWhenExpired === true;
	const qrFormat = read.options.qrCode === 'png' || read.options.qrCode === 'svg' ? read.options.qrCode : undefined;
	const catalogue = await catalogueFor(read, access, plan.routes === 'required');
	const planned = completeQuote(plan, catalogue);
	const key = idempotencyKeyFor(read, { operation: 'quote.create', body: planned.request, explicitKey: plan.idempotencyKey });
	const quote = await payableQuote(read, { access, planned, catalogue, key, marginSeconds, requote });
	return qrFormat === undefined ? quote : await withPaymentQrCode(read, quote, qrFormat);
}
