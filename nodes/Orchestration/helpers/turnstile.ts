/** Browser verification for submit and onramp (orchestration-service.md §5: header cf-turnstile-response). */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const turnstileTokenOption: INodeProperties = {
	displayName: 'Browser Verification Token',
	name: 'turnstileToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: 'Sent as cf-turnstile-response when browser verification is enabled for the key',
};

export function turnstileHeaders(options: IDataObject): Record<string, string> | undefined {
	const token = typeof options.turnstileToken === 'string' ? options.turnstileToken.trim() : '';
	return token ? { 'cf-turnstile-response': token } : undefined;
}
