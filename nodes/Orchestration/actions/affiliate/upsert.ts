/**
 * affiliate.upsert: PUT /v1/affiliates/{affiliateId} {feeBps, payoutChain, payoutAsset,
 * payoutAddress} -> {affiliate} (public-notes "Affiliate management and claims"; server key).
 * An unsupported payout pair is 400 invalid_payout_destination; Lightning is refused here first.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { planAffiliateProfile } from '../../../shared/orchestration/partnerPlan';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import type { OperationEnv } from '../types';
import { affiliateIdField } from './shared';

const show = showFor('affiliate', ['upsert']);

export const description: INodeProperties[] = [
	affiliateIdField(show, 'The affiliate to create, or to update when it exists'),
	{
		displayName: 'Fee (Bps)',
		name: 'feeBps',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 9999 },
		required: true,
		default: 0,
		description: 'The affiliate fee in basis points (0 to 9,999). The affiliate receives 80 % of it; the platform keeps 20 %.',
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
];

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, { service }: OperationEnv): Promise<IDataObject> {
	const input = {
		affiliateId: read.textParameter('affiliateId'),
		feeBps: read.integer('feeBps'),
		payoutChain: read.textParameter('payoutChain'),
		payoutAsset: read.textParameter('payoutAsset'),
		payoutAddress: read.textParameter('payoutAddress'),
	};
	const { path, body } = read.plan(() => planAffiliateProfile(input));
	const res = await service.request<IDataObject>({
		method: 'PUT',
		path,
		body: body as IDataObject,
		idempotencyKey: service.idempotencyKey({ operation: 'affiliate.upsert', body: { affiliateId: input.affiliateId, ...body } }),
	});
	const affiliate = res.body?.affiliate;
	return typeof affiliate === 'object' && affiliate !== null && !Array.isArray(affiliate) ? (affiliate as IDataObject) : res.body;
}
