/** What the operations on one affiliate share: its ID parameter, its profile, and the payout-destination guard. */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { itemFailure, optionsOf } from '../../../n8n/items';
import { isToolMode } from '../../../n8n/toolMode';
import {
	AFFILIATES_PAGE_MAX,
	describePayout,
	payoutChangeOf,
	payoutDestinationOf,
	type PayoutDestination,
} from '../../../shared/orchestration/partnerPlan';
import { readPages } from '../../helpers/paging';

export function affiliateIdField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Affiliate ID',
		name: 'affiliateId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'aff_partner_shop',
		description,
		displayOptions,
	};
}

/** The option that lets an operation pay an affiliate somewhere else than its payout destination. */
export function allowPayoutChangeOption(description: string): INodeProperties {
	return {
		displayName: 'Allow Payout Destination Change',
		name: 'allowPayoutChange',
		type: 'boolean',
		default: false,
		description,
	};
}

/** The profile of `affiliateId` among the partner's affiliates (disabled ones included), read page by page until found. */
async function profilesUpTo(
	ctx: IExecuteFunctions,
	i: number,
	affiliateId: string,
): Promise<IDataObject[]> {
	return await readPages(ctx, i, {
		path: '/v1/affiliates',
		member: 'affiliates',
		pageMax: AFFILIATES_PAGE_MAX,
		qs: { includeDisabled: true },
		all: true,
		until: (a) => a.affiliateId === affiliateId,
	});
}

/**
 * Refuses paying `affiliateId` anywhere but its own payout destination unless "Allow Payout
 * Destination Change" is on, and always as an AI-agent tool. Returns the current destination
 * when it changes (undefined: the same, or a new affiliate).
 */
export async function guardPayoutChange(
	ctx: IExecuteFunctions,
	i: number,
	affiliateId: string,
	/** The destination asked for, or how to make it from the current one (a claim may name only an address). */
	asked: PayoutDestination | ((current: PayoutDestination | undefined) => PayoutDestination),
	/** The action, e.g. "this claim would pay", followed in the message by the new destination. */
	what: string,
): Promise<{ from: PayoutDestination | undefined } | undefined> {
	const profiles = await profilesUpTo(ctx, i, affiliateId);
	const planned =
		typeof asked === 'function'
			? asked(payoutDestinationOf(profiles.find((a) => a.affiliateId === affiliateId)))
			: asked;
	const change = payoutChangeOf(profiles, affiliateId, planned);
	if (change === undefined) return undefined;
	const now =
		change.from === undefined
			? 'has a payout destination the service did not show'
			: `is paid ${describePayout(change.from)} today`;
	const message = `Affiliate "${affiliateId}" ${now}; ${what} ${describePayout(planned)} instead`;
	if (isToolMode(ctx)) {
		throw itemFailure(ctx, i, message, {
			description:
				'An AI agent may never change where affiliate fees are paid, whatever the options say. Run this step in a workflow a person controls.',
			errorCode: 'payout_destination_change',
		});
	}
	if (optionsOf(ctx, i).allowPayoutChange !== true) {
		throw itemFailure(ctx, i, message, {
			description:
				'Affiliate fees are paid where the affiliate\'s profile says. If this destination is intended, turn on "Allow Payout Destination Change" in Options; otherwise send the current payout chain, asset and address, or none.',
			errorCode: 'payout_destination_change',
		});
	}
	return { from: change.from };
}
