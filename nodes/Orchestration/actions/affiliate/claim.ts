/** affiliate.claim: POST /v1/affiliates/{affiliateId}/claim, the whole available balance, or with a body the settlement balance and payout it names (public-notes; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { optionsOf, textOption, textParameter } from '../../../n8n/items';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import { claimRecordsOf } from '../../../shared/orchestration/claims';
import { checkOffered } from '../../../shared/orchestration/enums';
import {
	affiliateIdOf,
	CLAIM_BODY_FIELDS,
	planClaim,
	type ClaimBodyField,
	type PayoutDestination,
} from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../common.descriptions';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { jsonOption } from '../../helpers/parameters';
import { catalogueFor } from '../../helpers/routes';
import { orchestrationApiRequest } from '../../transport';
import { claimOutputs, claimWaitParameters } from './claimResult';
import { affiliateIdField, allowPayoutChangeOption, guardPayoutChange } from './shared';

const show = showFor('affiliate', ['claim']);

/** An action: it moves funds (pays out accrued fees), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	affiliateIdField(
		show,
		'The affiliate whose available balance is claimed (paid to its payout address unless the options say otherwise)',
	),
	{
		displayName:
			'Claim pays out money. It is idempotent within one execution (Retry On Fail replays the first claim); running the workflow again claims what has accrued since.',
		name: 'claimNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	...claimWaitParameters('claim'),
	optionsCollection(show, [
		{
			displayName: 'Settlement Chain Name or ID',
			name: 'settlementChain',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSourceChains' },
			default: '',
			description:
				'Claim only the balance accrued on this chain (with Settlement Asset); needs a service that takes the claim body (newer docs). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Settlement Asset',
			name: 'settlementAsset',
			type: 'string',
			default: '',
			placeholder: 'USDC',
			description: 'Claim only the balance accrued in this asset (with Settlement Chain)',
		},
		{
			displayName: 'Payout Chain Name or ID',
			name: 'payoutChain',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSourceChains' },
			default: '',
			description:
				'Pay this claim on another chain than the affiliate\'s payout chain (with Payout Asset and Payout Address; not Lightning). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Payout Asset',
			name: 'payoutAsset',
			type: 'string',
			default: '',
			placeholder: 'USDC',
			description: 'Pay this claim in this asset (with Payout Chain)',
		},
		{
			displayName: 'Payout Address',
			name: 'payoutAddress',
			type: 'string',
			default: '',
			description:
				"Pay this claim to this address instead of the affiliate's payout address (on the payout chain)",
		},
		{
			displayName: 'Additional Body Fields (JSON)',
			name: 'additionalFields',
			type: 'json',
			default: '{}',
			description:
				'Members of the claim body the node does not name, sent as given. The named ones (settlementChain, payoutAddress, ...) are checked as if set above; a member the options already set, or another that names an address, is refused.',
		},
		allowPayoutChangeOption(
			"Whether this claim may be paid somewhere else than the affiliate's payout destination (Payout Chain, Asset or Address). Off: such a claim is refused, naming both destinations. Never as an AI-agent tool.",
		),
	]),
];

/** The claim's named options as text. */
function claimFields(ctx: IExecuteFunctions, i: number): Partial<Record<ClaimBodyField, string>> {
	const options = optionsOf(ctx, i);
	const fields: Partial<Record<ClaimBodyField, string>> = {};
	for (const name of CLAIM_BODY_FIELDS) {
		const value = textOption(options, name);
		if (value !== undefined) fields[name] = value;
	}
	return fields;
}

/** A claim paid elsewhere than the affiliate's own destination needs "Allow Payout Destination Change" (never as a tool). */
async function guardClaimPayout(
	ctx: IExecuteFunctions,
	i: number,
	affiliateId: string,
	sent: Partial<Record<ClaimBodyField, string>>,
): Promise<void> {
	const planned = (current: PayoutDestination | undefined): PayoutDestination => ({
		payoutChain: sent.payoutChain ?? current?.payoutChain ?? '(its current chain)',
		payoutAsset: sent.payoutAsset ?? current?.payoutAsset ?? '(its current asset)',
		payoutAddress: sent.payoutAddress ?? current?.payoutAddress ?? '',
	});
	await guardPayoutChange(ctx, i, affiliateIdOf(affiliateId), planned, 'this claim would pay');
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const affiliateId = textParameter(this, 'affiliateId', i);
	const {
		path,
		body,
		fields: sent,
	} = planClaim({
		affiliateId,
		fields: claimFields(this, i),
		additionalFields: jsonOption(this, i),
	});
	const { settlementChain, settlementAsset, payoutChain, payoutAsset, payoutAddress } = sent;
	if (settlementChain || payoutChain) {
		// the chains and assets a claim names are checked against the routes listing, like every request's
		const listing = await catalogueFor(this, i, false);
		checkOffered(listing, [
			{
				chainField: 'settlementChain',
				chain: settlementChain,
				assetField: 'settlementAsset',
				asset: settlementAsset,
			},
			{
				chainField: 'payoutChain',
				chain: payoutChain,
				assetField: 'payoutAsset',
				asset: payoutAsset,
			},
		]);
	}
	if (payoutChain || payoutAddress) await guardClaimPayout(this, i, affiliateId, sent);
	// derived from the execution, node, item and body: Retry On Fail replays the first claim
	const idempotencyKey = idempotencyKeyFor(this, i, {
		operation: 'affiliate.claim',
		body: body ? { affiliateId, ...body } : { affiliateId },
	});
	const res = await orchestrationApiRequest.call(
		this,
		'POST',
		path,
		body as IDataObject | undefined,
		{ idempotencyKey, itemIndex: i },
	);
	const replayed = isReplayed(res.headers);
	return await claimOutputs(
		this,
		i,
		affiliateId,
		claimRecordsOf(res.body),
		replayed ? { replayed } : {},
	);
}
