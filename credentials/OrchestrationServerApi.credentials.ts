import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import {
	allowEventStreamProperty,
	apiKeyProperty,
	baseUrlProperty,
	NO_REDIRECTS,
	redirectRules,
	TEST_BASE_URL,
	withBearerKey,
} from './orchestrationKey';

/** A backend secret of a partner account: every partner endpoint (orchestration-service.md §5). */
export class OrchestrationServerApi implements ICredentialType {
	name = 'orchestrationServerApi';

	displayName = 'Orchestration Server Key API';

	icon = {
		light: 'file:../icons/orchestration.svg',
		dark: 'file:../icons/orchestration.dark.svg',
	} as const;

	documentationUrl =
		'https://github.com/n8n-nodes-orchestration/n8n-nodes-orchestration#credentials';

	properties: INodeProperties[] = [
		baseUrlProperty,
		apiKeyProperty(
			'fn_',
			'Server key of the partner account (starts with fn_). Keep it on the server: it reaches every partner endpoint.',
		),
		allowEventStreamProperty,
	];

	/** Bearer key (§5); a key of the wrong kind is refused before anything is sent. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withBearerKey(credentials, requestOptions, 'server');
	}

	/** GET /v1/affiliates is reachable only with a valid server key (§4.5, §5). */
	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL,
			url: '/v1/affiliates',
			method: 'GET',
			...NO_REDIRECTS,
		},
		rules: [
			...redirectRules(),
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The API key is unknown, disabled or revoked' },
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'This key cannot reach server-key endpoints: it is a client key, or the partner account is not approved',
				},
			},
		],
	};
}
