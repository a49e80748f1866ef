/** standingAddress.createOrGet: PUT /v1/standing-deposit-addresses/{ref} (public-notes; server key): the same body answers 200, a changed one 409 instruction_conflict. */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { integerOption, optionsOf, textParameter } from '../../../n8n/items';
import { checkOffered } from '../../../shared/orchestration/enums';
import {
	planStandingInstruction,
	type StandingInput,
} from '../../../shared/orchestration/partnerPlan';
import { affiliateIdsOption, concurrencyOption, showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { affiliateRows, assetParameter, jsonOption } from '../../helpers/parameters';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest } from '../../transport';

const show = showFor('standingAddress', ['createOrGet']);

export function referenceField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'customer-1234',
		description:
			'Your own reference for the instruction (1 to 128 characters), e.g. a customer ID. It is sent as one URL path segment.',
		displayOptions,
	};
}

/** What the service says a changed body means, and what to do (public-notes: 409 instruction_conflict). */
export const INSTRUCTION_CONFLICT_HINT =
	'An instruction with this reference already exists with other settings (destination, fees, slippage, affiliates or refund addresses), and the service does not change it. Send exactly the settings it was created with (read them with Standing Deposit Address > Get), or use a new reference for the new settings.';

/** An action: it fixes where deposits go, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	referenceField(show),
	{
		displayName: 'Destination Chain Name or ID',
		name: 'destinationChain',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getStandingDestinationChains' },
		required: true,
		default: '',
		description:
			'Chain deposits are delivered on, from the standing destinations list. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show,
	},
	{
		displayName: 'Destination Asset Name or ID',
		name: 'destinationAsset',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getStandingDestinationAssets',
			loadOptionsDependsOn: ['destinationChain'],
		},
		required: true,
		default: '',
		description:
			'Asset delivered, from the standing destinations list. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show,
	},
	{
		displayName: 'Destination Address',
		name: 'destinationAddress',
		type: 'string',
		required: true,
		default: '',
		description: 'Address on the destination chain that receives every deposit',
		displayOptions: show,
	},
	optionsCollection(show, [
		affiliateIdsOption(
			'Registered affiliates (at most 16), optionally with a fee override; all fees together stay under 10,000 bps',
		),
		concurrencyOption,
		{
			displayName: 'Fee (Bps)',
			name: 'feeBps',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 9999 },
			default: 0,
			description: 'Your fee on every deposit, 0 to 9,999 basis points (the service defaults to 0)',
		},
		{
			displayName: 'Refund Addresses (JSON)',
			name: 'refundAddresses',
			type: 'json',
			default: '{}',
			description:
				'The refundAddresses object, sent as given (its members are not shown in the public docs, e.g. {"bitcoin": "bc1..."})',
		},
		{
			displayName: 'Slippage (Bps)',
			name: 'slippageBps',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10000 },
			default: 50,
			description: 'Slippage tolerance, 0 to 10,000 basis points (the service defaults to 50)',
		},
	]),
];

/** The item's instruction; planStandingInstruction checks it. */
function standingInput(ctx: IExecuteFunctions, i: number): StandingInput {
	const refundAddresses = jsonOption(ctx, i, 'refundAddresses');
	const options = optionsOf(ctx, i);
	return {
		reference: textParameter(ctx, 'reference', i),
		destination: {
			chain: textParameter(ctx, 'destinationChain', i),
			asset: assetParameter(ctx, 'destinationAsset', i),
			address: textParameter(ctx, 'destinationAddress', i),
		},
		slippageBps: integerOption(options, 'slippageBps'),
		feeBps: integerOption(options, 'feeBps'),
		affiliates: affiliateRows(ctx, i, 'affiliateIds'),
		refundAddresses,
	};
}

/** The destination is checked against the routes listing when it can be read. */
export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const input = standingInput(this, i);
	const { path, body } = planStandingInstruction(input);
	const { chain, asset } = input.destination;
	const listing = await catalogueFor(this, i, false);
	checkOffered(listing, [
		{ chainField: 'destinationChain', chain, assetField: 'destinationAsset', asset },
	]);
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'standingAddress.createOrGet',
		body: { reference: input.reference, ...body },
	});
	const res = await orchestrationApiRequest.call(this, 'PUT', path, body as IDataObject, {
		idempotencyKey,
		hints: { instruction_conflict: INSTRUCTION_CONFLICT_HINT },
		itemIndex: i,
	});
	return { reference: input.reference, ...res.body };
}
