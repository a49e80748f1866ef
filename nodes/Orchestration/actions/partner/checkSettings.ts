/** partner.checkSettings: no request; a flow's sandbox URLs refused when the credential reaches the live service. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ItemError } from '../../../n8n/errors';
import { getNodeParameter, invalidField } from '../../../n8n/items';
import { checkSettings } from '../../../shared/orchestration/settingsCheck';
import { serviceAccess } from '../../transport';
import { showFor } from '../common.descriptions';

const show = showFor('partner', ['checkSettings']);

export const description: INodeProperties[] = [
	{
		displayName:
			"Sends nothing to the service. Put it right after the flow's Settings node: when the credential reaches the live service (https, not this machine) and a setting's URL still points at the sandbox, the flow stops here and says which setting to change.",
		name: 'checkSettingsNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'Settings',
		name: 'settings',
		type: 'json',
		default: '={{ $json }}',
		description:
			'The settings to check, as a JSON object: every text value that is an http(s) URL is checked (loopback hosts, and hosts or paths naming "sandbox", are the sandbox)',
		displayOptions: show,
	},
];

function settingsOf(ctx: IExecuteFunctions, i: number): Record<string, unknown> {
	const raw = getNodeParameter(ctx, 'settings', i, '');
	if (raw === undefined || raw === null || raw === '') return ctx.getInputData()[i]?.json ?? {};
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch {
			throw invalidField(ctx, i, 'settings', 'is not valid JSON');
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw invalidField(
			ctx,
			i,
			'settings',
			'must be a JSON object, e.g. {{ $json }} after the Settings node',
		);
	return value as Record<string, unknown>;
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const settings = settingsOf(this, i);
	const { baseUrl } = await serviceAccess(this);
	const { serviceEnvironment, problem } = checkSettings(settings, baseUrl);
	if (problem !== undefined)
		throw new ItemError(this.getNode(), problem.message, {
			itemIndex: i,
			description: problem.description,
			errorCode: 'sandbox_setting_on_live_service',
		});
	return { ...this.getInputData()[i].json, serviceEnvironment };
}
