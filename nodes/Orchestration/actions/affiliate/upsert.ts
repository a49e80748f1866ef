/** affiliate.upsert: PUT /v1/affiliates/{affiliateId} {feeBps, payoutChain, payoutAsset, payoutAddress} → {affiliate} (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { integerParameter, textParameter } from '../../../n8n/items';
import { checkOffered } from '../../../shared/orchestration/enums';
import {
	affiliateIdOf,
	planAffiliateProfile,
	type PayoutDestination,
} from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest } from '../../transport';
import { affiliateIdField, allowPayoutChangeOption, guardPayoutChange } from './shared';

const show = showFor('affiliate', ['upsert']);

/** An action: it fixes where affiliate fees are paid, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate to create, or to update when it exists'),
	{
		displayName: 'Fee (Bps)',
		name: 'feeBps',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 9999 },
		required: true,
		default: 0,
		description:
			'The affiliate fee in basis points (1 to 9,999). The affiliate receives 80 % of it; the platform keeps 20 %.',
		displayOptions: show,
	},
	{
		displayName: 'Payout Chain Name or ID',
		name: 'payoutChain',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSourceChains' },
		required: true,
		default: '',
		description:
			'Chain the affiliate is paid on (not Lightning). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show,
	},
	{
		displayName: 'Payout Asset',
		name: 'payoutAsset',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'USDC',
		description: 'Asset the affiliate is paid in, e.g. USDC',
		displayOptions: show,
	},
	{
		displayName: 'Payout Address',
		name: 'payoutAddress',
		type: 'string',
		required: true,
		default: '',
		description: 'Address on the payout chain that receives the claims',
		displayOptions: show,
	},
	optionsCollection(show, [
		allowPayoutChangeOption(
			"Whether an existing affiliate's payout chain, asset or address may change. Off: such an update is refused and names the current and the new destination (claims pay the new one for fees recorded from then on). Never as an AI-agent tool.",
		),
	]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const input = {
		affiliateId: textParameter(this, 'affiliateId', i),
		feeBps: integerParameter(this, 'feeBps', i),
		payoutChain: textParameter(this, 'payoutChain', i),
		payoutAsset: textParameter(this, 'payoutAsset', i),
		payoutAddress: textParameter(this, 'payoutAddress', i),
	};
	const { path, body } = planAffiliateProfile(input);
	const listing = await catalogueFor(this, i, false);
	checkOffered(listing, [
		{
			chainField: 'payoutChain',
			chain: input.payoutChain,
			assetField: 'payoutAsset',
			asset: input.payoutAsset,
		},
	]);
	const affiliateId = affiliateIdOf(input.affiliateId);
	const planned = body as unknown as PayoutDestination;
	// The service replaces a payout destination without a word and the next claims pay it: a change needs the option.
	const change = await guardPayoutChange(
		this,
		i,
		affiliateId,
		planned,
		'this update would pay its claims',
	);
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'affiliate.upsert',
		body: { affiliateId: input.affiliateId, ...body },
	});
	const res = await orchestrationApiRequest.call(this, 'PUT', path, body as IDataObject, {
		idempotencyKey,
		itemIndex: i,
	});
	const affiliate = res.body?.affiliate;
	const out =
		typeof affiliate === 'object' && affiliate !== null && !Array.isArray(affiliate)
			? (affiliate as IDataObject)
			: res.body;
	return change?.from === undefined ? out : { ...out, previousPayout: { ...change.from } };
}
