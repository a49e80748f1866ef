/** standingAddress.refundHeldDeposits: POST {batchId, refundAddress} (public-notes; server key; the path is not shown: unconfirmed). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import { optionsOf, textOption, textParameter } from '../../../n8n/items';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import { planHeldRefund, STANDING_REFUND_PATH } from '../../../shared/orchestration/partnerPlan';
import { idempotencyKeyFor } from '../../helpers/idempotencyKey';
import { orchestrationApiRequest } from '../../transport';
import { showFor } from '../common.descriptions';
import { referenceField } from './createOrGet';

const show = showFor('standingAddress', ['refundHeldDeposits']);

/** An action: it sends deposits back, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

/** A 404 may be the reference or the batch, or the path, which the docs do not show. */
const NOT_FOUND_HINT =
	'Either the reference or the batch is unknown (Standing Deposit Address > Get Deposits lists the batches), or the service does not know this request\'s path: the docs do not show it. If the deposits are listed, set Options > "Request Path" to the path the service documents.';

export const description: INodeProperties[] = [
	referenceField(show),
	{
		displayName: 'Batch ID',
		name: 'batchId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The batch of held deposits to send back (batchId of a held deposit in Get Deposits)',
		displayOptions: show,
	},
	{
		displayName: 'Refund Address',
		name: 'refundAddress',
		type: 'string',
		required: true,
		default: '',
		description: 'Where the held deposits go back, on the chain they were paid on',
		displayOptions: show,
	},
	{
		displayName: `Deposits paid while the address was paused are held. This asks the service to send a held batch back (it checks eligibility, then answers refund_requested). The path of this request (POST ${STANDING_REFUND_PATH}) is not shown in the service's docs; if it answers 404 for a batch Get Deposits lists, set "Request Path" in Options.`,
		name: 'unconfirmedPathNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	optionsCollection(show, [
		{
			displayName: 'Request Path',
			name: 'requestPath',
			type: 'string',
			default: STANDING_REFUND_PATH,
			description:
				'Path of the POST {"batchId", "refundAddress"} request under the Base URL; {ref} stands for the encoded reference. Change it only if the service documents another one.',
		},
	]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const reference = textParameter(this, 'reference', i);
	const input = {
		batchId: textParameter(this, 'batchId', i),
		refundAddress: textParameter(this, 'refundAddress', i),
	};
	const { path, body } = planHeldRefund(
		reference,
		input,
		textOption(optionsOf(this, i), 'requestPath') ?? STANDING_REFUND_PATH,
	);
	const res = await orchestrationApiRequest.call(this, 'POST', path, body as IDataObject, {
		idempotencyKey: idempotencyKeyFor(this, i, {
			operation: 'standingAddress.refundHeldDeposits',
			body: { reference, path, ...body },
		}),
		hints: { not_found: NOT_FOUND_HINT },
		itemIndex: i,
		endpoint: `POST ${STANDING_REFUND_PATH}`,
	});
	return { reference, ...res.body, ...(isReplayed(res.headers) ? { replayed: true } : {}) };
}
