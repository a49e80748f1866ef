/** What Approve, Reject and Refund Reprice share (public-notes "Re-approvals"): the order read first, then one POST with a server key. */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { ItemError } from '../../../n8n/errors';
import { invalidField, itemFailure, textParameter } from '../../../n8n/items';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import { flatOrderOf } from '../../../shared/orchestration/orderView';
import { repriceStateProblem, type RepricePlan } from '../../../shared/orchestration/repricePlan';
import { normalizeStatusResponse } from '../../../shared/orchestration/responseSchemas';
import { orchestrationApiRequest, serviceAccess } from '../../transport';

/** public-notes: 400 invalid_state unless the order waits in awaiting_approval with this partner's pending re-approval. */
const INVALID_STATE_HINT =
	'Only an order in awaiting_approval with a pending price re-approval can be answered, once. Read it with Order > Get Status: its reprice.status says whether it was already answered.';

export function orderIdField(displayOptions: IDisplayOptions, what: string): INodeProperties {
	return {
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ord_...',
		description: `The order in awaiting_approval whose new price is ${what} (Get Status gives it as ID). Server key only; sent once per order: a retry or a re-run replays the first answer.`,
		displayOptions,
	};
}

export function reasonField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		description: 'An optional note for the service (at most 500 characters)',
		displayOptions,
	};
}

/** The order as Get Status reads it (flat), checked to wait for a price re-approval before anything is answered. */
export async function orderToAnswer(
	ctx: IExecuteFunctions,
	i: number,
): Promise<{ orderId: string; order: IDataObject }> {
	if ((await serviceAccess(ctx)).isClientKey) {
		throw invalidField(
			ctx,
			i,
			'authentication',
			'answering a price re-approval needs a server key: set "Authentication" to Server Key',
			'forbidden',
		);
	}
	const orderId = textParameter(ctx, 'orderId', i);
	if (orderId === '') throw invalidField(ctx, i, 'orderId', 'is required');
	const res = await orchestrationApiRequest.call(
		ctx,
		'GET',
		'/v1/orchestration/status',
		undefined,
		{ qs: { id: orderId }, itemIndex: i },
	);
	let order: IDataObject | undefined;
	try {
		const status = normalizeStatusResponse(res.body);
		order = { ...(flatOrderOf(status.order) as IDataObject), id: status.id, status: status.status };
	} catch {
		// an answer, not the item's input: its own message, after the try (n8n's lint)
	}
	if (order === undefined)
		throw new ItemError(ctx.getNode(), 'The status response has an unexpected shape', {
			itemIndex: i,
		});
	const problem = repriceStateProblem(order);
	if (problem !== undefined) {
		throw itemFailure(ctx, i, `Order ${orderId} ${problem}`, {
			description: 'Nothing was sent. Read the order again with Order > Get Status.',
			errorCode: 'invalid_state',
		});
	}
	return { orderId, order };
}

/** Sends the answer; the output is the service's answer, the decision and whether it was replayed. */
export async function sendAnswer(
	ctx: IExecuteFunctions,
	i: number,
	plan: RepricePlan,
	decision: string,
): Promise<IDataObject> {
	const res = await orchestrationApiRequest.call(
		ctx,
		'POST',
		plan.path,
		plan.request as IDataObject,
		{
			idempotencyKey: plan.idempotencyKey,
			hints: { invalid_state: INVALID_STATE_HINT },
			itemIndex: i,
		},
	);
	return { ...res.body, decision, replayed: isReplayed(res.headers) };
}
