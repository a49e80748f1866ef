import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';

import { addressOfPublicKey, parseIntentJson, publicKeyOfPrivateKey } from './intent';
import type { SandboxClock } from '../clock';
import { guardControlEndpoints } from '../control-guard';
import { registerGatewayControlRoutes } from './control';
import { GatewayApiError, sendGatewayError } from './errors';
import { IntentLifecycle } from './lifecycle';
import { registerGatewayRoutes } from './routes';
import { DEFAULT_SCHEDULE, GatewayState, type GatewaySchedule } from './state';

export interface GatewayAppOptions {
	clock: SandboxClock;
	/** `execution.chainId` of network info (§2.3a). */
	chainId?: number;
	/** Known signer keys; listed (public key and address only) at GET /sandbox/gateway/config. Any key may authenticate. */
	seedPrivateKeys?: string[];
	/** Access token lifetime in spec time, scaled by the clock (§5: "short-lived"). */
	tokenTtlMs?: number;
	minDepositSats?: number;
	paused?: boolean;
	depositAddress?: string;
	contractAddress?: string;
	sparkNetwork?: string;
	/** Spec-time delays of the lifecycle (§3). */
	schedule?: Partial<GatewaySchedule>;
	/** When false, intents move only by control calls. Default true. */
	autoAdvance?: boolean;
}

export interface GatewayApp {
	app: FastifyInstance;
	state: GatewayState;
	lifecycle: IntentLifecycle;
	close(): Promise<void>;
}

export const DEFAULT_GATEWAY_CHAIN_ID = 3637;
export const DEFAULT_TOKEN_TTL_MS = 15 * 60_000;
export const DEFAULT_MIN_DEPOSIT_SATS = 1000;

/** Fastify's own client errors (bad JSON, wrong media type, too large) in the gateway's error shape. */
function fastifyErrorCode(err: FastifyError): string {
	if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'unsupported_media_type';
	if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'payload_too_large';
	return 'invalid_request';
}

/** The execution gateway emulator (execution-gateway.md); not listening yet, so hooks can still be added. */
export async function buildGatewayApp(opts: GatewayAppOptions): Promise<GatewayApp> {
	const { clock } = opts;
	const state = new GatewayState({
		chainId: opts.chainId ?? DEFAULT_GATEWAY_CHAIN_ID,
		paused: opts.paused ?? false,
		minDepositSats: opts.minDepositSats ?? DEFAULT_MIN_DEPOSIT_SATS,
		depositAddress: opts.depositAddress ?? 'sprt1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
		contractAddress: opts.contractAddress ?? '0x5FbDB2315678afecb367f032d93F642f64180aa3',
		sparkNetwork: opts.sparkNetwork ?? 'regtest',
		tokenTtlMs: opts.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS,
		schedule: { ...DEFAULT_SCHEDULE, ...opts.schedule },
		autoAdvance: opts.autoAdvance ?? true,
	});
	for (const key of opts.seedPrivateKeys ?? []) {
		const publicKey = publicKeyOfPrivateKey(key);
		state.seededSigners.push({ publicKey, address: addressOfPublicKey(publicKey) });
	}
	const lifecycle = new IntentLifecycle(state, clock);

	const app = Fastify({ logger: false });
	// §2.1/§8: amounts are u64: integers beyond 2^53 stay exact, and 1e3 or 1.0 reach the checks as text.
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
		const text = typeof body === 'string' ? body : body.toString('utf8');
		if (text.trim() === '') return done(null, undefined);
		try {
			done(null, parseIntentJson(text));
		} catch {
			done(new GatewayApiError(400, 'invalid_json', 'request body is not valid JSON'), undefined);
		}
	});
	app.setErrorHandler((err: FastifyError | GatewayApiError, _request, reply) => {
		if (err instanceof GatewayApiError) return sendGatewayError(reply, err);
		const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
		const message = status === 500 ? 'internal sandbox error' : err.message;
		return sendGatewayError(reply, new GatewayApiError(status, status === 500 ? 'internal_error' : fastifyErrorCode(err), message));
	});
	app.setNotFoundHandler((request, reply) =>
		sendGatewayError(reply, new GatewayApiError(404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`)),
	);

	guardControlEndpoints(app);
	registerGatewayRoutes(app, state, lifecycle, clock);
	registerGatewayControlRoutes(app, state, lifecycle, clock);

	return {
		app,
		state,
		lifecycle,
		async close() {
			lifecycle.cancelAll();
			await app.close();
		},
	};
}
