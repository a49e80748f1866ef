/** Browser verification for submit and onramp (orchestration-service.md §5: header cf-turnstile-response). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionText } from './params';

export const turnstileTokenOption: INodeProperties = {
	displayName: 'Browser Verification Token',
	name: 'turnstileToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: 'Sent as cf-turnstile-response when browser verification is enabled for the key',
};

/** The verification header, or undefined when no token is set; a non-text token is refused. */
export function turnstileHeaders(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): Record<string, string> | undefined {
	const token = optionText(ctx, itemIndex, options, 'turnstileToken');
	return token ? { 'cf-turnstile-response': token } : undefined;
}
