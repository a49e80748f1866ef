/** What Accept and Decline ZeroConf Offer share (public-notes "Other partner operations"): one POST with a server key. */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { invalidField, textParameter } from '../../../n8n/items';
import { isReplayed } from '../../../shared/orchestration/idempotency';
import {
	planZeroconfDecision,
	type ZeroconfAction,
} from '../../../shared/orchestration/zeroconfPlan';
import { orchestrationApiRequest, serviceAccess } from '../../transport';

/** public-notes: 400 invalid_state unless the order waits in awaiting_approval with a pending, unexpired offer of this partner. */
export const INVALID_STATE_HINT =
	'Only an order in awaiting_approval with a pending, unexpired ZeroConf offer of your partner can be answered, once. Read the order with Order > Get Status: its zeroconfOffer.status says whether the offer was already accepted, declined or expired (a declined or expired offer waits for one on-chain confirmation by itself), and an order in awaiting_approval without an offer is an operator hold that needs no answer.';

/** The order whose offer is answered; `verb` says what the operation does with it. */
export function orderIdField(
	displayOptions: IDisplayOptions,
	verb: 'accepted' | 'declined',
): INodeProperties {
	return {
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ord_...',
		description: `The order in awaiting_approval whose ZeroConf offer is ${verb} (Get Status gives it as ID). Server key only; sent once per order: a retry or a re-run replays the first answer.`,
		displayOptions,
	};
}

export async function answerOffer(
	ctx: IExecuteFunctions,
	i: number,
	action: ZeroconfAction,
): Promise<IDataObject> {
	if ((await serviceAccess(ctx)).isClientKey) {
		throw invalidField(
			ctx,
			i,
			'authentication',
			'answering a ZeroConf offer needs a server key: set "Authentication" to Server Key',
			'forbidden',
		);
	}
	const orderId = textParameter(ctx, 'orderId', i);
	const reason = action === 'decline' ? textParameter(ctx, 'reason', i) : undefined;
	// the key is derived from the order and the action: retries and re-runs replay the first answer
	const plan = planZeroconfDecision(action, { orderId, reason });
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
	const replayed = isReplayed(res.headers);
	return { ...res.body, decision: action === 'accept' ? 'accepted' : 'declined', replayed };
}
