/**
 * The parameter declarations several operations share. Names are the wire names of
 * orchestration-service.md §4.1 and public-notes.md; they are stored in users' workflows, so they
 * never change.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { concurrencyOption } from '../../n8n/items';
import { rateLimitOptions } from '../../n8n/pacing';
import { dropdown, type Choice } from '../../n8n/descriptions';
import { SLIPPAGE_BPS_MAX, SLIPPAGE_BPS_MIN } from '../../shared/orchestration/schemas';

export { concurrencyOption } from '../../n8n/items';

/** displayOptions for one resource and its operations, plus extra conditions. */
export function showFor(
	resource: string,
	operations: string[],
	extra: NonNullable<IDisplayOptions['show']> = {},
): IDisplayOptions {
	return { show: { resource: [resource], operation: operations, ...extra } };
}

/** The n8n hint after a dropdown's description. */
const FROM_LIST =
	'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';

interface RouteSide {
	name: string;
	displayName: string;
	loader: string;
	/** Parameters whose values narrow the list (destinations depend on the source and modes). */
	dependsOn?: string[];
	description: string;
}

/** A required dropdown filled from the routes listing. */
function routeSideField(side: RouteSide, displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: side.displayName,
		name: side.name,
		type: 'options',
		typeOptions: side.dependsOn
			? { loadOptionsMethod: side.loader, loadOptionsDependsOn: side.dependsOn }
			: { loadOptionsMethod: side.loader },
		required: true,
		default: '',
		description: `${side.description} ${FROM_LIST}`,
		displayOptions,
	};
}

export function sourceChainField(
	displayOptions: IDisplayOptions,
	loader = 'getSourceChains',
): INodeProperties {
	const description = 'Chain the deposit is paid on, from the routes listing.';
	return routeSideField(
		{ name: 'sourceChain', displayName: 'Source Chain Name or ID', loader, description },
		displayOptions,
	);
}

export function sourceAssetField(
	displayOptions: IDisplayOptions,
	loader = 'getSourceAssets',
): INodeProperties {
	const description = 'Asset paid in: a symbol such as USDC or a routing key such as base:USDC.';
	return routeSideField(
		{
			name: 'sourceAsset',
			displayName: 'Source Asset Name or ID',
			loader,
			dependsOn: ['sourceChain'],
			description,
		},
		displayOptions,
	);
}

export function destinationChainField(
	displayOptions: IDisplayOptions,
	loader = 'getDestinationChains',
): INodeProperties {
	const dependsOn = ['sourceChain', 'sourceAsset', 'amountMode', 'deliveryMode'];
	const description =
		'Chain the funds are delivered on; the list shows only chains the source can reach in the chosen mode.';
	return routeSideField(
		{
			name: 'destinationChain',
			displayName: 'Destination Chain Name or ID',
			loader,
			dependsOn,
			description,
		},
		displayOptions,
	);
}

export function destinationAssetField(
	displayOptions: IDisplayOptions,
	loader = 'getDestinationAssets',
): INodeProperties {
	const dependsOn = [
		'destinationChain',
		'sourceChain',
		'sourceAsset',
		'amountMode',
		'deliveryMode',
	];
	const description =
		'Asset delivered; the list shows only assets the source can reach in the chosen mode.';
	return routeSideField(
		{
			name: 'destinationAsset',
			displayName: 'Destination Asset Name or ID',
			loader,
			dependsOn,
			description,
		},
		displayOptions,
	);
}

export function amountModeField(displayOptions: IDisplayOptions): INodeProperties {
	const choices: Choice[] = [
		['Exact In', 'exact_in', 'The amount is what is paid in (source asset)'],
		['Exact Out', 'exact_out', 'The amount is what is delivered (destination asset)'],
	];
	return dropdown(choices, {
		displayName: 'Amount Mode',
		name: 'amountMode',
		description: 'Whether the amount fixes the source or the destination side',
		displayOptions,
	});
}

export function deliveryModeField(displayOptions: IDisplayOptions): INodeProperties {
	const choices: Choice[] = [
		['Fixed', 'fixed', 'A fixed delivered amount, for destinations that offer it'],
		['Variable', 'variable', 'The delivered amount follows the market'],
	];
	const onlyExactIn = {
		...displayOptions,
		show: { ...(displayOptions.show ?? {}), amountMode: ['exact_in'] },
	};
	return dropdown(choices, {
		displayName: 'Delivery Mode',
		name: 'deliveryMode',
		default: 'variable',
		description: 'Fixed delivery exists only with Exact In and only towards some destinations',
		displayOptions: onlyExactIn,
	});
}

/** displayOptions plus a condition on the node's typeVersion (n8n's `@version`). */
export function forVersions(
	displayOptions: IDisplayOptions,
	versions: NonNullable<IDisplayOptions['show']>['@version'],
): IDisplayOptions {
	return { ...displayOptions, show: { ...(displayOptions.show ?? {}), '@version': versions } };
}

/** Node versions whose Amount Format defaults to Decimal; version 1 keeps smallest units. */
export const DECIMAL_DEFAULT_VERSIONS = [{ _cnd: { gte: 2 } }];

/**
 * "Amount Format": Decimal by default from node version 2 on; version 1 workflows that stored
 * nothing keep smallest units (same parameter name, version-dependent default).
 */
export function amountFormatField(displayOptions: IDisplayOptions): INodeProperties[] {
	const choices: Choice[] = [
		[
			'Decimal',
			'decimal',
			'Human units such as 1.5 BTC or 125.50 USDC, converted exactly with the asset decimals',
		],
		[
			'Smallest Unit',
			'smallestUnit',
			'Integer in the smallest unit of the asset, as the service expects (e.g. 1500000 for 1.5 USDC)',
		],
	];
	const field = dropdown(choices, {
		displayName: 'Amount Format',
		name: 'amountFormat',
		description:
			'How the amount is written. Give it as text (a string) when it comes from an expression.',
	});
	return [
		{ ...field, default: 'smallestUnit', displayOptions: forVersions(displayOptions, [1]) },
		{ ...field, displayOptions: forVersions(displayOptions, DECIMAL_DEFAULT_VERSIONS) },
	];
}

export function amountField(displayOptions: IDisplayOptions, description: string): INodeProperties {
	return {
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		required: true,
		default: '',
		placeholder: '125.50',
		description,
		displayOptions,
	};
}

export function recipientAddressField(
	displayOptions: IDisplayOptions,
	description: string,
	required = true,
): INodeProperties {
	return {
		displayName: 'Recipient Address',
		name: 'recipientAddress',
		type: 'string',
		required,
		default: '',
		description,
		displayOptions,
	};
}

export const slippageBpsOption: INodeProperties = {
	displayName: 'Slippage (Bps)',
	name: 'slippageBps',
	type: 'number',
	typeOptions: { minValue: SLIPPAGE_BPS_MIN, maxValue: SLIPPAGE_BPS_MAX },
	default: 50,
	description: 'Slippage tolerance in basis points, 0 to 1000, subject to the route minimum',
};

export const affiliateIdOption: INodeProperties = {
	displayName: 'Affiliate ID',
	name: 'affiliateId',
	type: 'string',
	default: '',
	description: 'A registered affiliate of the partner account (also accepted from client keys)',
};

/** "Affiliate ID" as a searchable picker of the partner's affiliates (node version 3, Quote > Create). */
export const affiliatePickerOption: INodeProperties = {
	...affiliateIdOption,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchAffiliates', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. aff_123' },
	],
};

/** The affiliate list of a quote or a standing address: IDs with an optional fee override each. */
export function affiliateIdsOption(description: string): INodeProperties {
	return {
		displayName: 'Affiliate IDs',
		name: 'affiliateIds',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description,
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
	};
}

export const refundAddressOption: INodeProperties = {
	displayName: 'Refund Address',
	name: 'refundAddress',
	type: 'string',
	default: '',
	description:
		'Source-chain address for refunds. Required for Exact Out and Lightning destinations on the live service.',
};

export const refundChainOption: INodeProperties = {
	displayName: 'Refund Chain Name or ID',
	name: 'refundChain',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getRefundChains', loadOptionsDependsOn: ['sourceChain'] },
	default: '',
	description:
		'Chain of the refund address: the source chain, which is also the default when empty. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Node versions where Quote > Create shows "Refund Address" at the top level (required for Exact Out and Lightning destinations). */
export const REFUND_ON_TOP_VERSIONS = [{ _cnd: { gte: 3 } }];

/**
 * "Refund Address" at the top level of Quote > Create from node version 3: required for Exact Out and
 * for Lightning destinations (public-notes: the live service refuses those quotes without one),
 * optional otherwise. Version 1 and 2 keep it under Options.
 */
export function refundAddressFields(displayOptions: IDisplayOptions): INodeProperties[] {
	const field: INodeProperties = {
		displayName: 'Refund Address',
		name: 'refundAddress',
		type: 'string',
		default: '',
		description:
			'Address on the source chain where the service sends the funds back if the order cannot complete',
	};
	const when = (
		extra: NonNullable<IDisplayOptions['show']>,
		hide?: IDisplayOptions['hide'],
	): IDisplayOptions => {
		const shown = forVersions(
			{ ...displayOptions, show: { ...(displayOptions.show ?? {}), ...extra } },
			REFUND_ON_TOP_VERSIONS,
		);
		return hide ? { ...shown, hide } : shown;
	};
	const required = {
		...field,
		required: true,
		description: `${field.description}. Required for Exact Out and Lightning destinations.`,
	};
	return [
		{ ...required, displayOptions: when({ amountMode: ['exact_out'] }) },
		{
			...required,
			displayOptions: when({ amountMode: ['exact_in'], destinationChain: ['lightning'] }),
		},
		{
			...field,
			displayOptions: when({ amountMode: ['exact_in'] }, { destinationChain: ['lightning'] }),
		},
	];
}

export const idempotencyKeyProperty: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	description:
		'Explicit X-Idempotency-Key, e.g. a payout ID, to dedupe across executions. When empty a key is derived from workflow, execution, node, item and request, so retries of this item reuse it.',
};

export const additionalFieldsOption: INodeProperties = {
	displayName: 'Additional Body Fields (JSON)',
	name: 'additionalFields',
	type: 'json',
	default: '{}',
	description:
		'Raw JSON object added to the request body, for fields this node does not name. A member the node already sets from its own parameters is refused.',
};

export function returnAllField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions,
	};
}

export function limitField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: {
			...displayOptions,
			show: { ...(displayOptions.show ?? {}), returnAll: [false] },
		},
	};
}

/** The "Filters" collection of a listing, options in the order given. */
export function filtersCollection(
	displayOptions: IDisplayOptions,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions,
		options,
	};
}

/** Node versions whose asset pickers are searchable resource locators; versions 1 and 2 keep the plain dropdown. */
export const ASSET_LOCATOR_VERSIONS = [{ _cnd: { gte: 3 } }];
const ASSET_DROPDOWN_VERSIONS = [{ _cnd: { lt: 3 } }];

/**
 * An asset as a searchable picker (From List, By ID) over the routes listing, thousands of entries:
 * the list keeps the route filtering of the dropdown (destinations the chosen source reaches).
 */
export function assetLocatorField(
	side: {
		name: string;
		displayName: string;
		searchListMethod: string;
		dependsOn: string[];
		description: string;
	},
	displayOptions: IDisplayOptions,
): INodeProperties {
	return {
		displayName: side.displayName,
		name: side.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: side.description,
		typeOptions: { loadOptionsDependsOn: side.dependsOn },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: side.searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. USDC or base:USDC' },
		],
		displayOptions: forVersions(displayOptions, ASSET_LOCATOR_VERSIONS),
	};
}

/** Source and destination asset: dropdowns before node version 3, searchable pickers from 3 on. */
function assetFields(
	displayOptions: IDisplayOptions,
	side: 'source' | 'destination',
): INodeProperties[] {
	const before = forVersions(displayOptions, ASSET_DROPDOWN_VERSIONS);
	if (side === 'source') {
		return [
			sourceAssetField(before),
			assetLocatorField(
				{
					name: 'sourceAsset',
					displayName: 'Source Asset',
					searchListMethod: 'searchSourceAssets',
					dependsOn: ['sourceChain'],
					description: 'Asset paid in: a symbol such as USDC or a routing key such as base:USDC',
				},
				displayOptions,
			),
		];
	}
	const dependsOn = [
		'destinationChain',
		'sourceChain',
		'sourceAsset',
		'amountMode',
		'deliveryMode',
	];
	return [
		destinationAssetField(before),
		assetLocatorField(
			{
				name: 'destinationAsset',
				displayName: 'Destination Asset',
				searchListMethod: 'searchDestinationAssets',
				dependsOn,
				description:
					'Asset delivered; the list shows only assets the source can reach in the chosen mode',
			},
			displayOptions,
		),
	];
}

/** The route and amount-shape fields of a quote or estimate, in the order the editor shows them. */
export function quoteRouteFields(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		sourceChainField(displayOptions),
		...assetFields(displayOptions, 'source'),
		destinationChainField(displayOptions),
		...assetFields(displayOptions, 'destination'),
		amountModeField(displayOptions),
		deliveryModeField(displayOptions),
		...amountFormatField(displayOptions),
	];
}

/** The options of every operation that creates a quote (§4.1); each adds its own (optionsCollection sorts them). */
export const quoteCreationOptions: INodeProperties[] = [
	additionalFieldsOption,
	affiliateIdOption,
	concurrencyOption,
	idempotencyKeyProperty,
	refundAddressOption,
	slippageBpsOption,
	...rateLimitOptions,
];

/**
 * Concurrency of the Quote operations (Create, Create Offramp, Estimate) when the node sets none: they
 * move no funds, and the pacer (nodes/n8n/pacing.ts) keeps a batch under the service's limits. Every
 * other operation keeps DEFAULT_CONCURRENCY (5), Order > Submit and Create Onramp among them.
 */
export const QUOTE_CONCURRENCY = 50;

export const quoteConcurrencyOption: INodeProperties = {
	...concurrencyOption,
	default: QUOTE_CONCURRENCY,
	description: `How many items are sent to the service at the same time (default ${QUOTE_CONCURRENCY}: quotes move no funds, and items wait for the service's rate limits). Output order always follows the input.`,
};

/** The options of every quote-creating operation with this Concurrency (Create Onramp keeps quoteCreationOptions and 5). */
export const quoteOperationOptions: INodeProperties[] = quoteCreationOptions.map((o) =>
	o === concurrencyOption ? quoteConcurrencyOption : o,
);

/** Browser verification for submit and onramp (orchestration-service.md §5: header cf-turnstile-response). */
export const turnstileTokenOption: INodeProperties = {
	displayName: 'Browser Verification Token',
	name: 'turnstileToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: 'Sent as cf-turnstile-response when browser verification is enabled for the key',
};
