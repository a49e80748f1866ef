/** quote.create: POST /v1/orchestration/quote (orchestration-service.md §4.1). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import {
	integerOption,
	invalidField,
	itemFailure,
	optionsOf,
	textOption,
	textParameter,
	type ItemWithBinary,
} from '../../../n8n/items';
import { isReplayed, requoteIdempotencyKey } from '../../../shared/orchestration/idempotency';
import {
	EXPIRY_MARGIN_DEFAULT_SECONDS,
	EXPIRY_MARGIN_MAX_SECONDS,
} from '../../../shared/orchestration/schemas';
import {
	completeQuote,
	planQuote,
	quoteOutput,
	unpayableQuote,
	type PlannedQuote,
	type QuoteInput,
} from '../../../shared/orchestration/quotePlan';
import type { RoutesCatalogue } from '../../../shared/orchestration/routesCatalogue';
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
} from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import {
	amountParameter,
	expiryMarginOption,
	idempotencyKeyOption,
	jsonOption,
	quoteRoute,
} from '../../helpers/parameters';
import { qrCodeOption, withQrCodeOption } from '../../helpers/qrCode';
import { checkLimits, withRouteBounds } from '../../helpers/limits';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest, serviceAccess } from '../../transport';
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
	qrCodeOption(
		'the payment URI',
		'Whether to add a QR code of "paymentUri" as binary data (for a chat message or an email); none when the deposit has no payment URI',
	),
	{
		displayName: 'Check Limits Before Sending',
		name: 'checkLimits',
		type: 'boolean',
		default: false,
		description:
			"Whether to read the routes' limits once per execution (Route > Get Limits) and fail an item whose amount is outside its route's bounds before its quote is sent (amount_too_small / amount_too_large), so a batch skips what the service would refuse",
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
			{
				name: 'Live Service Form',
				value: 'fee',
				description:
					'Each app fee sent as {recipient, fee}: the form the live service takes in requests (fee in basis points)',
			},
			{
				name: 'Spec Form',
				value: 'feeBps',
				description:
					'Each app fee sent as {recipient, feeBps, affiliateId?}: the form of the service specification',
			},
		],
		default: 'feeBps',
		description:
			'How the entries of App Fees are written in the request. Raw entries in Additional Body Fields may use either form.',
	},
	{
		displayName: 'App Fees',
		name: 'appFees',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			'Inline app fees (1 to 16 entries); server keys only. Not together with Affiliate IDs.',
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
			{
				name: 'Service Default',
				value: 'default',
				description: 'Send nothing: the service decides',
			},
		],
		default: 'default',
		description:
			"Whether a Bitcoin L1 deposit may get a ZeroConf offer: the order then waits in awaiting_approval until Order > Accept or Decline ZeroConf Offer answers it. Sent as zeroconfEnabled (the service's docs name it); newer docs also make the offer per deposit without this flag. Other source chains ignore it.",
	},
];

/** An action: it fixes where a deposit goes and the fees it pays, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	...quoteRouteFields(show),
	amountField(
		show,
		'Source amount, or the destination amount with Exact Out. Stablecoin Exact Out amounts must be whole cents.',
	),
	recipientAddressField(
		show,
		'Destination address. Solana tokens take the owner address; Lightning takes a Lightning address or a BOLT11 invoice.',
	),
	...refundAddressFields(show),
	...[REFUND_IN_OPTIONS_VERSIONS, REFUND_ON_TOP_VERSIONS].map((versions) =>
		optionsCollection(
			forVersions(show, versions),
			createOptions(versions === REFUND_IN_OPTIONS_VERSIONS),
		),
	),
];

/** The options of Quote > Create; before node version 3 with "Refund Address" and a plain "Affiliate ID", from 3 on with the affiliate picker. */
function createOptions(beforeVersion3: boolean): INodeProperties[] {
	const shared = beforeVersion3
		? quoteOperationOptions
		: quoteOperationOptions
				.filter((o) => o !== refundAddressOption)
				.map((o) => (o === affiliateIdOption ? affiliatePickerOption : o));
	return [
		...shared,
		...expiryOptions,
		affiliateIdsOption(
			'Registered affiliates (1 to 16), optionally with a fee override (server keys only). Not together with App Fees.',
		),
		...feeAndDepositOptions,
	];
}

/** The ZeroConf opt-in as sent (public-notes `zeroconfEnabled`); undefined leaves it to the service. */
function zeroconfChoice(options: IDataObject): boolean | undefined {
	return options.zeroconfEnabled === 'optIn'
		? true
		: options.zeroconfEnabled === 'optOut'
			? false
			: undefined;
}

/** One App Fees row in the chosen form: the spec's `{recipient, feeBps, affiliateId?}` or the live service's `{recipient, fee}`. */
function appFeeOf(
	ctx: IExecuteFunctions,
	i: number,
	options: IDataObject,
	fee: IDataObject,
	at: string,
): IDataObject {
	const feeBps = integerOption(fee, 'feeBps', `${at}.feeBps`);
	if (feeBps === undefined) throw invalidField(ctx, i, `${at}.feeBps`, 'is required');
	const affiliateId = textOption(fee, 'affiliateId', `${at}.affiliateId`);
	const recipient = textOption(fee, 'recipient', `${at}.recipient`) ?? '';
	const amount = options.appFeeForm === 'fee' ? { fee: feeBps } : { feeBps };
	return { recipient, ...amount, ...(affiliateId ? { affiliateId } : {}) };
}

function affiliateOf(entry: IDataObject, at: string): string | IDataObject {
	const affiliateId = textOption(entry, 'affiliateId', `${at}.affiliateId`) ?? '';
	const feeBps = integerOption(entry, 'feeBps', `${at}.feeBps`);
	return feeBps === undefined ? affiliateId : { affiliateId, feeBps };
}

/** "App Fees" and "Affiliate IDs" of the options as §4.1 lists them; undefined when empty. */
function feeFields(
	ctx: IExecuteFunctions,
	i: number,
	options: IDataObject,
): { appFees?: IDataObject[]; affiliateIds?: Array<string | IDataObject> } {
	const fees =
		((options.appFees as IDataObject | undefined)?.fee as IDataObject[] | undefined) ?? [];
	const affiliates =
		((options.affiliateIds as IDataObject | undefined)?.affiliate as IDataObject[] | undefined) ??
		[];
	return {
		appFees:
			fees.length > 0
				? fees.map((fee, n) => appFeeOf(ctx, i, options, fee, `appFees[${n}]`))
				: undefined,
		affiliateIds:
			affiliates.length > 0
				? affiliates.map((entry, n) => affiliateOf(entry, `affiliateIds[${n}]`))
				: undefined,
	};
}

/** The options with a picker's value in place of the picker (the Affiliate ID of node version 3). */
function pickedValues(options: IDataObject): IDataObject {
	const picker = options.affiliateId as IDataObject | undefined;
	return picker !== null && typeof picker === 'object' && '__rl' in picker
		? { ...options, affiliateId: picker.value }
		: options;
}

/** The item's quote request; planQuote checks it. */
function quoteInput(ctx: IExecuteFunctions, i: number, isClientKey: boolean): QuoteInput {
	const options = optionsOf(ctx, i);
	const request = {
		...quoteRoute(ctx, i),
		recipientAddress: textParameter(ctx, 'recipientAddress', i),
		includeCalldata: options.includeCalldata === true ? true : undefined,
		amountlessInvoice: options.amountlessInvoice === true ? true : undefined,
		affiliateId: textOption(pickedValues(options), 'affiliateId'),
		// Top level from node version 3; a value under Options (versions 1 and 2, or pasted JSON) still counts.
		refundAddress: textParameter(ctx, 'refundAddress', i) || textOption(options, 'refundAddress'),
		refundChain: textOption(options, 'refundChain'),
		slippageBps: integerOption(options, 'slippageBps'),
		zeroconfEnabled: zeroconfChoice(options),
		...feeFields(ctx, i, options),
	};
	return {
		request,
		amount: amountParameter(ctx, i),
		additionalFields: jsonOption(ctx, i),
		idempotencyKey: idempotencyKeyOption(ctx, i),
		isClientKey,
		refundRule: true,
	};
}

/**
 * Sends the quote and returns it only while payable: a replayed answer is marked, an expired one (or
 * one inside the margin) fails the item with the next step, or is replaced under a derived key.
 */
async function payableQuote(
	ctx: IExecuteFunctions,
	i: number,
	sending: { planned: PlannedQuote; catalogue?: RoutesCatalogue; key: string },
): Promise<IDataObject> {
	const { planned, catalogue } = sending;
	const marginSeconds = expiryMarginOption(ctx, i);
	const requote = optionsOf(ctx, i).requoteWhenExpired === true;
	let key = sending.key;
	let requotedFrom: unknown;
	for (let requotes = 0; ; requotes++) {
		const res = await orchestrationApiRequest
			.call(ctx, 'POST', '/v1/orchestration/quote', planned.request as IDataObject, {
				idempotencyKey: key,
				itemIndex: i,
			})
			.catch(
				async (error: unknown) =>
					await Promise.reject(
						await withRouteBounds(ctx, i, planned.request as IDataObject, error),
					),
			);
		const replayed = isReplayed(res.headers);
		const problem = unpayableQuote(res.body, { replayed, marginSeconds });
		if (problem === undefined) {
			const out: IDataObject = quoteOutput(res.body, {
				catalogue,
				source: planned.source,
				destination: planned.destination,
			});
			const { sourceChain, sourceAsset } = planned.request as Record<string, string>;
			const transfer = await verifiedTransfer(ctx, i, res.body, {
				chain: sourceChain,
				asset: sourceAsset,
				entry: planned.source,
			});
			return {
				...out,
				...transfer,
				replayed,
				...(requotedFrom !== undefined ? { requotedFrom } : {}),
			};
		}
		if (!(requote && problem.requotable && requotes < MAX_REQUOTES))
			throw itemFailure(ctx, i, problem.message, {
				description: problem.nextStep,
				errorCode: 'quote_expired',
			});
		requotedFrom = res.body.quoteId;
		key = requoteIdempotencyKey(key, ctx.getExecutionId());
	}
}

/** Checks every input before the first request, reads the routes listing where the amount needs it, sends, shapes. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
): Promise<IDataObject | ItemWithBinary> {
	const plan = planQuote(quoteInput(this, i, (await serviceAccess(this)).isClientKey));
	const catalogue = await catalogueFor(this, i, plan.routes === 'required');
	const planned = completeQuote(plan, catalogue);
	if (optionsOf(this, i).checkLimits === true)
		await checkLimits(this, i, planned.request as unknown as Parameters<typeof checkLimits>[2]);
	const key = idempotencyKeyFor(this, i, {
		operation: 'quote.create',
		body: planned.request,
		explicitKey: plan.idempotencyKey,
	});
	const quote = await payableQuote(this, i, { planned, catalogue, key });
	return await withQrCodeOption(
		this,
		i,
		quote,
		quote.paymentUri,
		`quote-${String(quote.quoteId ?? 'deposit')}`,
	);
}
