import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { REDIRECT_STATUSES } from '../nodes/shared/secureUrl';
import {
	allowEventStreamProperty,
	apiKeyProperty,
	baseUrlProperty,
	NO_REDIRECTS,
	redirectRules,
	TEST_BASE_URL,
	withBearerKey,
} from './orchestrationKey';

/** A browser-safe partner key restricted by scopes and origins (orchestration-service.md §5). */
export class OrchestrationClientApi implements ICredentialType {
	name = 'orchestrationClientApi';

	displayName = 'Orchestration Client Key API';

	icon = {
		light: 'file:../icons/orchestration.svg',
		dark: 'file:../icons/orchestration.dark.svg',
	} as const;

	documentationUrl =
		'https://github.com/n8n-nodes-orchestration/n8n-nodes-orchestration#credentials';

	properties: INodeProperties[] = [
		baseUrlProperty,
		apiKeyProperty(
			'fnp_',
			'Client key of the partner account (starts with fnp_). Its scopes decide which operations it may call.',
		),
		{
			displayName: 'Origin',
			name: 'origin',
			type: 'string',
			default: '',
			placeholder: 'https://app.example.com',
			description:
				"Sent as the Origin header. Required for browser-mode keys; it must be one of the key's allowed origins. Leave empty for server-mode keys.",
		},
		allowEventStreamProperty,
	];

	/** Bearer key plus Origin when set (§5 origin modes); a key of the wrong kind is refused first. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const origin = String(credentials.origin ?? '').trim();
		return withBearerKey(
			credentials,
			requestOptions,
			'client',
			origin !== '' ? { Origin: origin } : {},
		);
	}

	/**
	 * Status of a made-up order: an invalid key gets 401 and a refused origin or account a 403 with
	 * its code, while a valid key gets as far as read_token_required, scope_required or not_found.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL,
			url: '/v1/orchestration/status',
			qs: { id: 'n8n-credential-test' },
			method: 'GET',
			// Other refusals are read from the body; a 401 and a redirect fail the request.
			ignoreHttpStatusErrors: { ignore: true, except: [401, ...REDIRECT_STATUSES] },
			...NO_REDIRECTS,
		},
		// n8n's credential test reads each rule by its type: status rules on a failed request, body rules on an answer.
		rules: [
			...redirectRules(),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'origin_required',
					message: 'This browser-mode key needs an Origin: set "Origin" in the credential',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'origin_not_allowed',
					message: "The Origin is not among the key's allowed origins",
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'partner_disabled',
					message: 'The partner account is disabled',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'account_pending_approval',
					message: 'The partner account is waiting for approval',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'account_rejected',
					message: 'The partner account was rejected',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'forbidden',
					message: 'The service refused this key for client-key requests',
				},
			},
		] as Array<
			IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody
		> as ICredentialTestRequest['rules'],
	};
}
