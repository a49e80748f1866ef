/**
 * Execution gateway keypair (execution-gateway.md §4, §5). The user types the gateway URL and a
 * secp256k1 private key; the public key is derived. `preAuthentication` runs the challenge and
 * verify round trip and fills the hidden expirable `accessToken`, which n8n stores and renews
 * after a 401. The private key never leaves n8n: only the public key and signatures are sent.
 */
import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { authDeadline, DeadlineExceeded, startDeadline } from '../nodes/n8n/transport';
import { ProtocolError } from '../nodes/shared/errors';
import {
	parsePrivateKey,
	publicKeyFromPrivateKey,
	signChallenge,
	unsafeChallengeReason,
} from '../nodes/shared/gateway/keys';
import { challengeTextOf, VerifyResponseSchema } from '../nodes/shared/gateway/responses';
import {
	assertNoOwnedHeaders,
	assertSecureUrl,
	baseUrlOf,
	isUnderBase,
	REDIRECT_STATUSES,
	redirectRefusal,
	requestUrlOf,
} from '../nodes/shared/secureUrl';

const CREDENTIAL_NAME = 'Execution Gateway credential';

/** Base URL without trailing slashes joined with an API path; only https (or loopback http). */
function gatewayEndpoint(gatewayUrl: unknown, path: string): string {
	assertSecureUrl(gatewayUrl, CREDENTIAL_NAME, 'Gateway URL');
	return `${baseUrlOf(gatewayUrl)}${path}`;
}

/** `scheme://host[:port]` of a redirect's Location, never its path or query. */
function redirectTarget(location: unknown, from: string): string {
	try {
		return new URL(String(location), from).origin;
	} catch {
		return 'an address that is not a URL';
	}
}

/** The gateway's `{error: {code, message}}` (or the HTTP status) of a failed request, without secrets. */
function describeFailure(error: unknown, url: string): string {
	const e = error as {
		response?: {
			status?: number;
			data?: unknown;
			body?: unknown;
			headers?: Record<string, unknown>;
		};
		httpCode?: string;
		code?: string;
		cause?: { code?: string };
		message?: string;
	};
	const status = e.response?.status ?? (e.httpCode ? Number(e.httpCode) : undefined);
	if (status !== undefined && status >= 300 && status < 400) {
		return `a redirect (HTTP ${status}) to ${redirectTarget(e.response?.headers?.location, url)}, which is not followed: set "Gateway URL" to the address the gateway answers on directly`;
	}
	if (error instanceof DeadlineExceeded) return error.message;
	let data = e.response?.data ?? e.response?.body;
	if (typeof data === 'string') {
		try {
			data = JSON.parse(data);
		} catch {
			data = undefined;
		}
	}
	const body = (data as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
	const code = typeof body?.code === 'string' ? body.code : undefined;
	const message = typeof body?.message === 'string' ? body.message : undefined;
	if (code || message)
		return `${code ?? 'error'}: ${message ?? 'no message'}${status ? ` (HTTP ${status})` : ''}`;
	if (status) return `HTTP ${status}`;
	const network = e.code ?? e.cause?.code;
	return network ? `could not reach the gateway (${network})` : 'request failed';
}

/** Reads and validates the key; the message names the field and never repeats the value. */
function privateKeyOf(credentials: ICredentialDataDecryptedObject): Uint8Array {
	try {
		return parsePrivateKey(
			typeof credentials.privateKey === 'string' ? credentials.privateKey : '',
			'privateKey',
		);
	} catch (error) {
		const reason =
			error instanceof ProtocolError
				? error.message
				: 'privateKey is not a valid secp256k1 private key';
		throw new Error(`Execution Gateway credential: invalid "Private Key": ${reason}`);
	}
}

export class ExecutionGatewayApi implements ICredentialType {
	name = 'executionGatewayApi';

	displayName = 'Execution Gateway Keypair API';

	icon: Icon = {
		light: 'file:../icons/executionGateway.svg',
		dark: 'file:../icons/executionGateway.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-orchestration/n8n-nodes-orchestration#execution-gateway';

	properties: INodeProperties[] = [
		{
			displayName: 'Gateway URL',
			name: 'gatewayUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://gateway.example.com',
			description:
				'Base URL of the execution gateway, without the /api/v1 prefix. Must be https:// (http:// only for localhost, 127.0.0.0/8 or ::1, e.g. the sandbox).',
		},
		{
			displayName: 'Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The signer's secp256k1 private key: 64 hex characters (32 bytes), 0x optional. The public key is derived from it. The key stays in n8n: only the public key and signatures are sent. Use a key dedicated to this gateway, never one of a wallet or another service: it signs the gateway's login challenges (short printable text only) and your intents.",
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Access Token Public Key',
			name: 'accessTokenPublicKey',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Access Token Gateway URL',
			name: 'accessTokenGatewayUrl',
			type: 'hidden',
			default: '',
		},
	];

	/** §5: challenge for the derived public key, DER signature over SHA-256(challengeString), verify. */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const privateKey = privateKeyOf(credentials);
		const publicKey = publicKeyFromPrivateKey(privateKey);
		const post = async (
			path: string,
			body: Record<string, string>,
			step: string,
		): Promise<unknown> => {
			const url = gatewayEndpoint(credentials.gatewayUrl, path);
			const options: IHttpRequestOptions = {
				method: 'POST',
				url,
				body,
				json: true,
				headers: { Accept: 'application/json' },
				// The signature is a login: it goes to the Gateway URL only, never along a redirect.
				disableFollowRedirect: true,
				sendCredentialsOnCrossOriginRedirect: false,
			};
			try {
				// The whole request ends at the deadline (n8n's `timeout` would only bound idle time).
				const deadline = startDeadline(authDeadline.ms, undefined);
				return await deadline.settle(
					this.helpers.httpRequest({ ...options, abortSignal: deadline.signal }),
				);
			} catch (error) {
				throw new Error(
					`Execution Gateway authentication failed at ${step}: ${describeFailure(error, url)}`,
				);
			}
		};
		const challenge = challengeTextOf(
			await post('/api/v1/auth/challenge', { publicKey }, 'the challenge'),
		);
		if (challenge === undefined) {
			throw new Error(
				'Execution Gateway authentication failed: the challenge response has no challengeString',
			);
		}
		const unsafe = unsafeChallengeReason(challenge);
		if (unsafe !== undefined) {
			// A challenge that could be an intent turns authentication into a signing oracle.
			throw new Error(
				`Execution Gateway authentication refused: ${unsafe}. Nothing was signed; check that "Gateway URL" is the real gateway.`,
			);
		}
		const signature = signChallenge(challenge, privateKey);
		const verified = VerifyResponseSchema.safeParse(
			await post('/api/v1/auth/verify', { publicKey, signature }, 'verify'),
		);
		if (!verified.success) {
			throw new Error(
				'Execution Gateway authentication failed: the verify response has no accessToken',
			);
		}
		// The key and the URL the token stands for are stored with it: it never outlives a key change
		// and never goes to another URL.
		return {
			accessToken: verified.data.accessToken,
			accessTokenPublicKey: publicKey,
			accessTokenGatewayUrl: baseUrlOf(credentials.gatewayUrl),
		};
	}

	/**
	 * §5 step 3: `Authorization: Bearer <accessToken>`, but only while the token belongs to the
	 * current key and to the current Gateway URL, and only on a request under that URL. After the
	 * user replaces the key or the URL the gateway answers 401 without a header and n8n renews the
	 * token through preAuthentication; a request elsewhere never carries it.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		assertSecureUrl(credentials.gatewayUrl, CREDENTIAL_NAME, 'Gateway URL');
		assertNoOwnedHeaders(requestOptions.headers, CREDENTIAL_NAME);
		const token = credentials.accessToken;
		if (typeof token !== 'string' || token === '') return requestOptions;
		const boundUrl =
			typeof credentials.accessTokenGatewayUrl === 'string'
				? credentials.accessTokenGatewayUrl
				: '';
		if (
			boundUrl !== baseUrlOf(credentials.gatewayUrl) ||
			!isUnderBase(requestUrlOf(requestOptions), boundUrl)
		)
			return requestOptions;
		let currentPublicKey: string;
		try {
			currentPublicKey = publicKeyFromPrivateKey(privateKeyOf(credentials));
		} catch {
			// A malformed key sends no token; the 401 leads to preAuthentication, which names the problem.
			return requestOptions;
		}
		if (credentials.accessTokenPublicKey !== currentPublicKey) return requestOptions;
		return {
			...requestOptions,
			headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${token}` },
		};
	}

	/**
	 * n8n runs `preAuthentication` before every credential test (the whole challenge and verify
	 * round trip), then this request confirms the URL serves the gateway's network info.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.gatewayUrl}}',
			url: '/api/v1/network/info',
			method: 'GET',
			// n8n would follow a redirect and, by default, send the token along to another origin.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: REDIRECT_STATUSES.map(
			(value): IAuthenticateRuleResponseCode => ({
				type: 'responseCode',
				properties: { value, message: redirectRefusal('Gateway URL') },
			}),
		),
	};
}
