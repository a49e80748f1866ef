/** intent.get: GET /api/v1/intents/{submissionId} (execution-gateway.md §2.3, §4), optionally until final. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldError } from '../../../transport/nodeErrors';
import {
	fetchIntent,
	gatewayUrlOf,
	optionsCollection,
	stringParam,
	waitForFinal,
	waitOptionFields,
	waitOptionsOf,
} from '../../gateway';

const show = { resource: ['intent'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Submission ID',
		name: 'submissionId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show },
		description: 'The submissionId returned when the intent was executed',
	},
	optionsCollection(show, waitOptionFields),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const submissionId = stringParam(this, itemIndex, 'submissionId', this.getNodeParameter('submissionId', itemIndex, ''));
	if (submissionId === '') {
		throw fieldError(this.getNode(), itemIndex, 'submissionId', 'is empty', 'invalid_submission_id');
	}
	const wait = waitOptionsOf(this.getNodeParameter('options', itemIndex, {}) as IDataObject);
	const gatewayUrl = await gatewayUrlOf(this, itemIndex);
	if (wait.waitUntilFinal) return await waitForFinal(this, itemIndex, { gatewayUrl, submissionId }, wait);
	return await fetchIntent(this, gatewayUrl, submissionId, itemIndex);
}
