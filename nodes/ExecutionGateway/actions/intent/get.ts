/** intent.get: GET /api/v1/intents/{submissionId} (execution-gateway.md §2.3, §4), optionally until final (intentWait.ts). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { invalidField, textParameter } from '../../../n8n/items';
import { fetchIntent } from '../../helpers/gateway';
import { waitForFinal, waitOptionsFor } from '../../helpers/intentWait';

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

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const submissionId = textParameter(this, 'submissionId', i);
	if (submissionId === '')
		throw invalidField(this, i, 'submissionId', 'is empty', 'invalid_submission_id');
	const wait = waitOptionsFor(this, i);
	if (wait.waitUntilFinal) return await waitForFinal(this, i, { submissionId }, wait);
	return await fetchIntent(this, i, submissionId);
}
