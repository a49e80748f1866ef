/**
 * order.getStatus: GET /v1/orchestration/status by order `id` or `quoteId` (orchestration-service.md
 * §4.6). Client keys send the read token in X-Read-Token (§5). One output shape whether the service
 * answers flat or nested; optionally polls (never faster than every 3 s) until a final status.
 */
import {
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';
import { ProtocolError } from '../../../shared/orchestration/errors';
import { FINAL_STATUSES } from '../../../shared/orchestration/enums';
import { normalizeStatusResponse, type NormalizedStatus } from '../../../shared/orchestration/schemas';
import { fieldError } from '../../../transport/items';
import type { ServiceAccess } from '../../helpers/access';
import { concurrencyOption, optionsCollection, showFor } from '../../helpers/fields';
import { text } from '../../helpers/params';
import { orchestrationRequest } from '../../helpers/request';
import { orderWithFormattedAmounts } from '../../helpers/orderAmounts';
import { catalogueFor } from '../../helpers/quoteInput';
import type { OperationEnv } from '../types';

/** public-notes.md: poll one order's status no faster than every 3 seconds. */
export const MIN_POLL_INTERVAL_SECONDS = 3;

const show = showFor('order', ['getStatus']);
const showWait = showFor('order', ['getStatus'], { waitUntilFinal: [true] });

export const description: INodeProperties[] = [
	{
		displayName: 'Look Up By',
		name: 'lookupBy',
		type: 'options',
		options: [
			{ name: 'Order ID', value: 'id', description: 'The ID of an order (submit and onramp return it as orderId)' },
			{ name: 'Quote ID', value: 'quoteId', description: 'The quote; its order appears once the deposit is paid' },
		],
		default: 'id',
		displayOptions: show,
	},
	{
		displayName: 'Order ID',
		name: 'id',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showFor('order', ['getStatus'], { lookupBy: ['id'] }),
	},
	{
		displayName: 'Quote ID',
		name: 'quoteId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showFor('order', ['getStatus'], { lookupBy: ['quoteId'] }),
	},
	{
		displayName: 'Read Token',
		name: 'readToken',
		type: 'string',
		typeOptions: { password: true },
		default: '={{ $json.readToken }}',
		description:
			'Token returned by Create Quote (for a Quote ID) or by Submit / Create Onramp (for an Order ID). Client-key reads need it. It is a bearer-like token: pass it on, do not publish it.',
		displayOptions: showFor('order', ['getStatus'], { authentication: ['clientKey'] }),
	},
	{
		displayName: 'Wait Until Final',
		name: 'waitUntilFinal',
		type: 'boolean',
		default: false,
		description: `Whether to poll until the order is ${FINAL_STATUSES.join(', ')}`,
		displayOptions: show,
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS },
		default: 5,
		description: 'Time between two status reads; never less than 3 seconds',
		displayOptions: showWait,
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 600,
		description: 'How long to keep polling',
		displayOptions: showWait,
	},
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		options: [
			{ name: 'Error', value: 'error', description: 'Fail the item (or give an error item with Continue On Fail)' },
			{
				name: 'Return Last State',
				value: 'returnLastState',
				description: 'Output the last status read, with waitTimedOut set to true',
			},
		],
		default: 'error',
		displayOptions: showWait,
	},
	optionsCollection(show, [concurrencyOption]),
];

async function readStatus(
	ctx: IExecuteFunctions,
	access: ServiceAccess,
	itemIndex: number,
	qs: IDataObject,
	readToken: string | undefined,
): Promise<NormalizedStatus> {
	const res = await orchestrationRequest(ctx, access, {
		method: 'GET',
		path: '/v1/orchestration/status',
		qs,
		headers: readToken ? { 'X-Read-Token': readToken } : undefined,
		itemIndex,
		requiredScope: 'orders:read',
		secrets: [readToken],
	});
	try {
		return normalizeStatusResponse(res.body);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), 'The status response has an unexpected shape', {
			itemIndex,
			description: error instanceof ProtocolError ? error.message : String(error),
		});
	}
}

/** The one output shape: the order fields, then id, status, stage names and details, isFinal. */
export function statusOutput(state: NormalizedStatus): IDataObject {
	return {
		...(state.order as IDataObject),
		id: state.id,
		status: state.status,
		stages: state.stages,
		stageDetails: state.stageDetails as IDataObject[] | string[],
		isFinal: state.isFinal,
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number, { access }: OperationEnv): Promise<IDataObject> {
	const lookupBy = text(this, 'lookupBy', itemIndex) === 'quoteId' ? 'quoteId' : 'id';
	const identifier = text(this, lookupBy, itemIndex);
	if (identifier === '') throw fieldError(this, itemIndex, lookupBy, 'is required');
	const readToken = access.isClientKey ? text(this, 'readToken', itemIndex) || undefined : undefined;
	const qs = { [lookupBy]: identifier };

	let state = await readStatus(this, access, itemIndex, qs, readToken);
	const waitUntilFinal = this.getNodeParameter('waitUntilFinal', itemIndex, false) as boolean;
	let waitTimedOut = false;
	if (waitUntilFinal && !state.isFinal) {
		const intervalSeconds = Math.max(
			MIN_POLL_INTERVAL_SECONDS,
			Number(this.getNodeParameter('pollIntervalSeconds', itemIndex, 5)) || MIN_POLL_INTERVAL_SECONDS,
		);
		const timeoutSeconds = Math.max(0, Number(this.getNodeParameter('waitTimeoutSeconds', itemIndex, 600)) || 0);
		const deadline = Date.now() + timeoutSeconds * 1000;
		while (!state.isFinal) {
			if (Date.now() + intervalSeconds * 1000 > deadline) {
				waitTimedOut = true;
				break;
			}
			await sleep(intervalSeconds * 1000);
			state = await readStatus(this, access, itemIndex, qs, readToken);
		}
		if (waitTimedOut && this.getNodeParameter('onTimeout', itemIndex, 'error') !== 'returnLastState') {
			throw new NodeOperationError(
				this.getNode(),
				`The order is still "${state.status}" after waiting ${timeoutSeconds} s`,
				{
					itemIndex,
					description: 'Raise "Timeout (Seconds)", or set "On Timeout" to Return Last State to continue with the last status.',
				},
			);
		}
	}
	const catalogue = await catalogueFor(this, access, itemIndex, false);
	const out = catalogue ? orderWithFormattedAmounts(statusOutput(state), catalogue) : statusOutput(state);
	if (waitUntilFinal) out.waitTimedOut = waitTimedOut;
	// The read token travels on so the next node can read this order again by expression.
	if (readToken) out.readToken = readToken;
	return out;
}
