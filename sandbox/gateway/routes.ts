import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { SandboxClock } from '../clock';
import { admitExecute } from './admission';
import { authenticate, issueChallenge, verifyChallenge } from './auth';
import { notFound } from './errors';
import type { IntentLifecycle } from './lifecycle';
import { intentStatusBody, wireStatus, type GatewayState } from './state';

/** The public endpoints of execution-gateway.md §4, all under /api/v1 (§9). */
export function registerGatewayRoutes(
	app: FastifyInstance,
	state: GatewayState,
	lifecycle: IntentLifecycle,
	clock: SandboxClock,
): void {
	const signerOf = (request: FastifyRequest) => authenticate(state, clock, request.headers.authorization);

	app.post('/api/v1/auth/challenge', async (request) => issueChallenge(state, clock, request.body));

	app.post('/api/v1/auth/verify', async (request) => verifyChallenge(state, clock, request.body));

	// §2.3a; clients cache for 60 s and send forceRefresh=1 to bypass (§4). The sandbox never caches.
	app.get('/api/v1/network/info', async (_request, reply) => {
		reply.header('cache-control', 'max-age=60');
		const { config } = state;
		return {
			spark: { depositAddress: config.depositAddress, network: config.sparkNetwork },
			execution: { contractAddress: config.contractAddress, chainId: config.chainId },
			paused: config.paused,
			minDepositSats: config.minDepositSats,
		};
	});

	app.get('/api/v1/health', async () => ({ status: 'ok' }));

	app.post('/api/v1/execute', async (request) => {
		const signer = signerOf(request);
		const admitted = admitExecute(state, signer, request.body, clock.now());
		const record = lifecycle.accept(signer, admitted);
		return { submissionId: record.submissionId, intentId: record.intentId, status: wireStatus(state.config, record.status) };
	});

	// Only the submitting signer may read an intent; others get 404, not 403, so ids do not leak.
	app.get<{ Params: { submissionId: string } }>('/api/v1/intents/:submissionId', async (request) => {
		const signer = signerOf(request);
		const record = state.intents.get(request.params.submissionId);
		if (!record || record.signer !== signer) throw notFound(`intent ${request.params.submissionId} not found`);
		const body = intentStatusBody(record);
		return { ...body, status: wireStatus(state.config, body.status) };
	});
}
