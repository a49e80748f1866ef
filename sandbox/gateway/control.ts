import type { FastifyInstance } from 'fastify';

import { Problem, tokenIdOf, transferIdOf, u64Of } from './intent';
import { INTENT_STATUSES, type IntentStatus } from './spec';
import type { SandboxClock } from '../clock';
import { expireAllTokens } from './auth';
import { notFound, rejectAdmission } from './errors';
import type { IntentLifecycle } from './lifecycle';
import {
	intentControlBody,
	registeredTransferBody,
	type GatewayState,
	type IntentRecord,
	type RegisteredTransfer,
	type RevertPlan,
} from './state';

type Body = Record<string, unknown>;

const bodyOf = (body: unknown): Body => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {});

function field<T>(fn: () => T): T {
	try {
		return fn();
	} catch (e) {
		if (e instanceof Problem) throw rejectAdmission('invalid_request', e.message);
		throw e;
	}
}

function parseRevertPlan(b: Body): RevertPlan {
	if (b.kind === 'panic') {
		const raw = b.code ?? 1;
		const code =
			typeof raw === 'string' && /^0x[0-9a-f]+$/i.test(raw)
				? BigInt(raw)
				: field(() => u64Of(raw, 'code'));
		return { kind: 'panic', code };
	}
	if (b.kind === undefined || b.kind === 'error') {
		if (b.message !== undefined && typeof b.message !== 'string') throw rejectAdmission('invalid_request', 'message must be a string');
		return { kind: 'error', message: (b.message as string | undefined) ?? 'sandbox: forced revert' };
	}
	throw rejectAdmission('invalid_request', 'kind must be "error" or "panic"');
}

/**
 * Control endpoints of the gateway emulator (not part of the spec), all under /sandbox:
 * - POST /sandbox/transfers {sparkTransferId, assetType?, tokenId?, amount?}: a Spark transfer the
 *   deposit oracle will confirm (no amount: any amount matches). GET lists them.
 * - GET /sandbox/intents, GET /sandbox/intents/:id: every intent with signer, transfers, history.
 * - POST /sandbox/intents/:id/advance {status, statusMessage?, hold?}: forward transition; after
 *   INCLUDED_PENDING_FINALITY the schedule still finalizes unless `hold` is true.
 * - POST /sandbox/intents/:id/revert {kind: 'error'|'panic', message?, code?}: revert now.
 * - GET|POST /sandbox/gateway/config {paused?, minDepositSats?, autoAdvance?, lowercaseStatuses?, admitWhenPaused?}:
 *   network state; lowercase statuses and advisory pause behave like the live service.
 * - POST /sandbox/tokens/expire: every access token answers 401 token_expired from now on.
 */
export function registerGatewayControlRoutes(
	app: FastifyInstance,
	state: GatewayState,
	lifecycle: IntentLifecycle,
	clock: SandboxClock,
): void {
	const intentOr404 = (id: string): IntentRecord => {
		const record = state.intents.get(id);
		if (!record) throw notFound(`intent ${id} not found`);
		return record;
	};

	// Spark transfers the deposit oracle will confirm (§1, §3).
	app.post('/sandbox/transfers', async (request, reply) => {
		const b = bodyOf(request.body);
		const assetType = b.assetType ?? 'btc';
		if (assetType !== 'btc' && assetType !== 'token') throw rejectAdmission('invalid_request', 'assetType must be "btc" or "token"');
		const transfer: RegisteredTransfer = {
			sparkTransferId: field(() => transferIdOf(b.sparkTransferId, assetType)),
			assetType,
			tokenId: assetType === 'token' ? field(() => tokenIdOf(b.tokenId)) : undefined,
			amount: b.amount === undefined || b.amount === null ? undefined : field(() => u64Of(b.amount, 'amount')),
			registeredAt: new Date(clock.now()).toISOString(),
		};
		state.transfers.set(transfer.sparkTransferId.toLowerCase(), transfer);
		return reply.code(201).send(registeredTransferBody(transfer));
	});

	app.get('/sandbox/transfers', async () => ({ transfers: [...state.transfers.values()].map(registeredTransferBody) }));

	app.get('/sandbox/intents', async () => ({ intents: [...state.intents.values()].map(intentControlBody) }));

	app.get<{ Params: { submissionId: string } }>('/sandbox/intents/:submissionId', async (request) =>
		intentControlBody(intentOr404(request.params.submissionId)),
	);

	app.post<{ Params: { submissionId: string } }>('/sandbox/intents/:submissionId/advance', async (request) => {
		const record = intentOr404(request.params.submissionId);
		const b = bodyOf(request.body);
		const status = b.status as IntentStatus;
		if (!(INTENT_STATUSES as readonly string[]).includes(status) || status === 'ACCEPTED') {
			throw rejectAdmission('invalid_request', 'status must be INCLUDED_PENDING_FINALITY, FINALIZED or EXPIRED');
		}
		if (b.statusMessage !== undefined && typeof b.statusMessage !== 'string') {
			throw rejectAdmission('invalid_request', 'statusMessage must be a string');
		}
		lifecycle.advance(record, status, b.statusMessage as string | undefined, b.hold === true);
		return intentControlBody(record);
	});

	app.post<{ Params: { submissionId: string } }>('/sandbox/intents/:submissionId/revert', async (request) => {
		const record = intentOr404(request.params.submissionId);
		lifecycle.revertNow(record, parseRevertPlan(bodyOf(request.body)));
		return intentControlBody(record);
	});

	const configBody = () => ({
		chainId: state.config.chainId,
		paused: state.config.paused,
		minDepositSats: state.config.minDepositSats,
		autoAdvance: state.config.autoAdvance,
		lowercaseStatuses: state.config.lowercaseStatuses === true,
		admitWhenPaused: state.config.admitWhenPaused === true,
		tokenTtlMs: state.config.tokenTtlMs,
		schedule: state.config.schedule,
		depositAddress: state.config.depositAddress,
		contractAddress: state.config.contractAddress,
		seededSigners: state.seededSigners,
	});

	app.get('/sandbox/gateway/config', async () => configBody());

	// Flips the network state that network info reports (§2.3a) and admission enforces.
	app.post('/sandbox/gateway/config', async (request) => {
		const b = bodyOf(request.body);
		if (b.paused !== undefined) {
			if (typeof b.paused !== 'boolean') throw rejectAdmission('invalid_request', 'paused must be a boolean');
			state.config.paused = b.paused;
		}
		if (b.minDepositSats !== undefined) {
			if (typeof b.minDepositSats !== 'number' || !Number.isSafeInteger(b.minDepositSats) || b.minDepositSats < 0) {
				throw rejectAdmission('invalid_request', 'minDepositSats must be a non-negative integer');
			}
			state.config.minDepositSats = b.minDepositSats;
		}
		if (b.autoAdvance !== undefined) {
			if (typeof b.autoAdvance !== 'boolean') throw rejectAdmission('invalid_request', 'autoAdvance must be a boolean');
			state.config.autoAdvance = b.autoAdvance;
		}
		for (const name of ['lowercaseStatuses', 'admitWhenPaused'] as const) {
			if (b[name] === undefined) continue;
			if (typeof b[name] !== 'boolean') throw rejectAdmission('invalid_request', `${name} must be a boolean`);
			state.config[name] = b[name];
		}
		return configBody();
	});

	app.post('/sandbox/tokens/expire', async () => ({ expired: expireAllTokens(state, clock) }));
}
