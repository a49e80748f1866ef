/** intent.get: GET /api/v1/intents/{submissionId} (execution-gateway.md §2.3, §4), optionally until final. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import type { ItemReader } from '../../../n8n/items';
import {
	fetchIntent,
	gatewayUrlOf,
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
	optionsCollection({ show }, waitOptionFields),
];

export async function execute(this: IExecuteFunctions, read: ItemReader): Promise<IDataObject> {
	const submissionId = read.textParameter('submissionId');
	if (submissionId === '') throw read.fail('submissionId', 'is empty', 'invalid_submission_id');
	const wait = waitOptionsOf(read.options);
	const gatewayUrl = await gatewayUrlOf(read);
	if (wait.waitUntilFinal) return await waitForFinal(read, { gatewayUrl, submissionId }, wait);
	return await fetchIntent(read, gatewayUrl, submissionId);
}
