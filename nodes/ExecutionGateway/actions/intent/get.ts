/** intent.get: GET /api/v1/intents/{submissionId} (execution-gateway.md §2.3, §4), optionally until final (intentWait.ts). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ItemReader } from '../../../n8n/items';
import { fetchIntent, gatewayUrlOf } from '../../gateway';
import { waitForFinal, waitOptionsFor } from '../../intentWait';

export const show = { resource: ['intent'], operation: ['get'] };

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
	// Versions 1-1.1 keep the wait in Options, 1.2 on shows the shared wait parameters: both added by intent/index.ts.
];

export async function execute(this: IExecuteFunctions, read: ItemReader): Promise<IDataObject> {
	const submissionId = read.textParameter('submissionId');
	if (submissionId === '') throw read.fail('submissionId', 'is empty', 'invalid_submission_id');
	const wait = waitOptionsFor(read);
	const gatewayUrl = await gatewayUrlOf(read);
	if (wait.waitUntilFinal) return await waitForFinal(read, { gatewayUrl, submissionId }, wait);
	return await fetchIntent(read, gatewayUrl, submissionId);
}
