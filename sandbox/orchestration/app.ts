import { EventEmitter } from 'node:events';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { SandboxClock } from '../clock';
import type { SandboxConfig } from '../config';
import { guardControlEndpoints, isControlRequest } from '../control-guard';
import { FaultInjector } from '../faults';
import { buildKeyRegistry } from './auth';
import { Catalogue } from './catalogue';
import type { OrchestrationContext } from './context';
import { WebhookDispatcher } from './deliveries';
import { ApiError, errorBody, sendApiError } from './errors';
import { publicStatus } from './order-view';
import { OrderEngine } from './orders';
import { registerAffiliateEndpoints } from './endpoints/affiliates';
import { registerCatalogueEndpoints } from './endpoints/catalogue';
import { registerControlEndpoints } from './endpoints/control';
import { registerLegacyEndpoints } from './endpoints/legacy';
import { registerOrderEndpoints } from './endpoints/orders';
import { registerPartnerEndpoints } from './endpoints/partner';
import { registerFeeInvoiceEndpoints } from './endpoints/feeInvoices';
import { registerPayLinkEndpoints } from './endpoints/payLinks';
import { registerQuoteEndpoints } from './endpoints/quotes';
import { registerRepriceEndpoints } from './endpoints/reprice';
import { registerStandingEndpoints } from './endpoints/standing';
import { registerStatusEndpoints } from './endpoints/status';
import { registerZeroconfEndpoints } from './endpoints/zeroconf';
import { type RecordedRequest, SandboxState } from './state';

export interface OrchestrationAppOptions {
	config: SandboxConfig;
	clock: SandboxClock;
	/** The JSON of GET /sandbox/keys (needs both services' URLs, so the composition supplies it). */
	keysJson: () => unknown;
	logger?: boolean;
}

export interface OrchestrationApp {
	app: FastifyInstance;
	ctx: OrchestrationContext;
	/** Clears runtime state and restores the configured switches (seeds stay). */
	reset(): void;
	close(): Promise<void>;
}

/** public-notes: payload_too_large above 1 MiB. */
const BODY_LIMIT = 1024 * 1024;
const SECRET_HEADERS = new Set(['authorization', 'x-read-token', 'cf-turnstile-response', 'cookie']);
const SECRET_QUERY = new Set(['token', 'readToken']);

export async function buildOrchestrationApp(opts: OrchestrationAppOptions): Promise<OrchestrationApp> {
	const { config, clock } = opts;
	const switches = structuredClone(config.switches);
	const state = new SandboxState(config);
	const events = new EventEmitter();
	events.setMaxListeners(0);
	const webhooks = new WebhookDispatcher(state, clock, switches);
	// a status change goes to the webhooks and the streams; another event (order.superseded) to the webhooks only
	const notify: ConstructorParameters<typeof OrderEngine>[3] = (order, event) => {
		webhooks.emit(order, event);
		if (event === undefined) events.emit('status', order.id, publicStatus(order));
	};
	const ctx: OrchestrationContext = {
		config, switches, clock, state, events, webhooks,
		catalogue: new Catalogue(),
		faults: new FaultInjector(),
		orders: new OrderEngine(state, clock, switches, notify),
		keys: buildKeyRegistry(config),
	};
	ctx.faults.replace(switches.faults);

	// The stream takes the key in its query string: the request log shows URLs with secrets redacted.
	const logger = opts.logger ? { serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }) } } : false;
	const app = Fastify({ logger, bodyLimit: BODY_LIMIT, forceCloseConnections: true });
	// JSON bodies only: anything else is 415 unsupported_media_type (public-notes).
	app.removeContentTypeParser('text/plain');
	guardControlEndpoints(app);
	ctx.faults.install(app);
	ctx.faults.onAnswerWithheld = (request, status, mode) => recordRequest(ctx, request, undefined, status, { answerWithheld: mode });
	app.addHook('onSend', async (request, reply, payload) => {
		const origin = request.headers.origin;
		// Browser keys need CORS (spec §5); the control endpoints never answer another origin.
		if (origin && !isControlRequest(request)) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
		return payload;
	});
	// A client that gave up before the answer (its timeout) gets no onResponse: record the request now.
	app.addHook('onSend', async (request, reply, payload) => {
		if (!isControlRequest(request) && request.raw.socket?.destroyed && !recorded.has(request)) {
			recordRequest(ctx, request, reply, reply.statusCode, { clientGone: true });
		}
		return payload;
	});
	app.addHook('onResponse', async (request, reply) => {
		if (!isControlRequest(request) && !recorded.has(request)) recordRequest(ctx, request, reply, reply.statusCode);
	});
	// An event stream (a hijacked reply) that the client closes gets no onResponse: record it when it closes.
	app.addHook('onRequest', async (request, reply) => {
		if (request.routeOptions.url !== SSE_ROUTE) return;
		reply.raw.once('close', () => {
			if (!recorded.has(request)) recordRequest(ctx, request, reply, reply.raw.statusCode);
		});
	});
	app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
		if (err instanceof ApiError) return sendApiError(reply, err);
		const status = err.statusCode ?? 500;
		if (status === 413) return reply.code(413).send(errorBody('payload_too_large', 'the request body is larger than 1 MiB'));
		if (status === 415) return reply.code(415).send(errorBody('unsupported_media_type', 'send the body as application/json'));
		if (status >= 400 && status < 500) return reply.code(status).send(errorBody('invalid_request', err.message));
		request.log.error(err);
		return reply.code(500).send(errorBody('internal_error', 'internal sandbox error'));
	});
	app.setNotFoundHandler((request, reply) => {
		if (request.method === 'OPTIONS') {
			// Preflight for browser keys (spec §5: global cross-origin rules apply on top).
			return reply
				.code(204)
				.header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
				.header('access-control-allow-headers', 'authorization, content-type, x-idempotency-key, x-read-token, cf-turnstile-response')
				.send();
		}
		return reply.code(404).send(errorBody('not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
	});

	const stopTimers = () => {
		for (const order of state.orders.values()) clock.cancel(order.timer);
		webhooks.stop();
	};
	const reset = () => {
		stopTimers();
		state.reset();
		Object.assign(switches, structuredClone(config.switches));
		ctx.faults.replace(switches.faults);
		ctx.gatewayFaults?.clear();
	};

	registerQuoteEndpoints(app, ctx);
	registerOrderEndpoints(app, ctx);
	registerStatusEndpoints(app, ctx);
	registerCatalogueEndpoints(app, ctx);
	registerPartnerEndpoints(app, ctx);
	registerAffiliateEndpoints(app, ctx);
	registerStandingEndpoints(app, ctx);
	registerRepriceEndpoints(app, ctx);
	registerPayLinkEndpoints(app, ctx);
	registerFeeInvoiceEndpoints(app, ctx);
	registerLegacyEndpoints(app, ctx);
	registerControlEndpoints(app, ctx, opts.keysJson, reset);
	registerZeroconfEndpoints(app, ctx);
	await app.ready();
	return {
		app,
		ctx,
		reset,
		close: async () => {
			stopTimers();
			await app.close();
		},
	};
}

function redactUrl(url: string): string {
	const [path, query] = url.split('?', 2);
	if (query === undefined) return url;
	const params = new URLSearchParams(query);
	for (const name of SECRET_QUERY) if (params.has(name)) params.set(name, 'REDACTED');
	return `${path}?${params.toString()}`;
}

function redactedQuery(query: unknown): Record<string, unknown> {
	const out: Record<string, unknown> = { ...(query as Record<string, unknown>) };
	for (const name of Object.keys(out)) if (SECRET_QUERY.has(name)) out[name] = 'REDACTED';
	return out;
}

/** The event stream's route (endpoints/status.ts): its replies are hijacked. */
const SSE_ROUTE = '/v1/sse/operations/:id';

/** Records what the sandbox received, secrets redacted (GET /sandbox/requests). */
/** Requests already recorded when a fault withheld their answer (onResponse skips them). */
const recorded = new WeakSet<FastifyRequest>();

/** The rate-limit headers an answer carried (public-notes: `X-RateLimit-*`, `Retry-After`). */
const LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'] as const;

function limitHeadersOf(reply: FastifyReply | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of LIMIT_HEADERS) {
		const value = reply?.getHeader(name);
		if (value !== undefined) out[name] = String(value);
	}
	return out;
}

function recordRequest(
	ctx: OrchestrationContext,
	request: FastifyRequest,
	reply: FastifyReply | undefined,
	status: number,
	extra: Pick<RecordedRequest, 'answerWithheld' | 'clientGone'> = {},
): void {
	recorded.add(request);
	const headers: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(request.headers)) headers[name] = SECRET_HEADERS.has(name) ? 'REDACTED' : value;
	const key = request.headers['x-idempotency-key'];
	ctx.state.record({
		at: new Date().toISOString(),
		method: request.method,
		path: request.url.split('?')[0],
		route: request.routeOptions.url ?? null,
		query: redactedQuery(request.query),
		headers,
		body: request.body ?? null,
		status,
		idempotencyKey: typeof key === 'string' ? key : null,
		replayed: request.sandboxReplayed === true,
		limitHeaders: limitHeadersOf(reply),
		...extra,
		keyType: request.sandboxCaller?.type ?? null,
		partnerId: request.sandboxCaller?.partner.partnerId ?? null,
	});
}
