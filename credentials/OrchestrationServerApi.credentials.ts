import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Server keys start with `fn_` (orchestration-service.md §5). */
const PREFIX = 'fn_';

/** A backend secret of a partner account: every partner endpoint (orchestration-service.md §5). */
export class OrchestrationServerApi implements ICredentialType {
	name = 'orchestrationServerApi';

	displayName = 'Orchestration Server Key API';

	icon = { light: 'file:../icons/orchestration.svg', dark: 'file:../icons/orchestration.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-orchestration/n8n-nodes-orchestration#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the orchestration service, without a path. A trailing slash is fine.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'fn_...',
			description: 'Server key of the partner account (starts with fn_). Keep it on the server: it reaches every partner endpoint.',
		},
	];

	/** Bearer key (§5); a key of the wrong kind is refused before anything is sent. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const apiKey = String(credentials.apiKey ?? '').trim();
		if (!apiKey.startsWith(PREFIX)) {
			throw new Error(
				`The "API Key" of the Orchestration Server Key credential must start with "${PREFIX}" (a server key)${
					apiKey.startsWith('fnp_') ? '; this is a client key: use the Orchestration Client Key credential' : ''
				}`,
			);
		}
		return {
			...requestOptions,
			headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${apiKey}` },
		};
	}

	/** GET /v1/affiliates is reachable only with a valid server key (§4.5, §5). */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}',
			url: '/v1/affiliates',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The API key is unknown, disabled or revoked' },
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'This key cannot reach server-key endpoints: it is a client key, or the partner account is not approved',
				},
			},
		],
	};
}
