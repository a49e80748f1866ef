import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onSendHookHandler } from 'fastify';
import { z } from 'zod';
import { isControlRequest } from './control-guard';

/**
 * Fault injection per route for reliability tests: added latency, a 5xx (or any) answer, a dropped
 * connection, a body that trickles out slowly, a lost answer (the handler acts, then the answer
 * is dropped or held past the client's timeout), or extra headers on the handler's own answer (a
 * service whose rate-limit headers lie). Reusable by any Fastify app of the sandbox.
 */
/** What a `depositTransaction` rule does to the unsigned deposit transfer of one quote (docs/sandbox.md). */
export const DEPOSIT_TRANSACTION_VARIANTS = ['honest', 'approve', 'recipient', 'amount', 'token', 'chainId', 'extraData', 'erc20Value'] as const;
const UNSAFE_MEMBERS = new Set(['__proto__', 'constructor', 'prototype']);
const memberPath = z
	.string()
	.regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}(\.[A-Za-z_$][A-Za-z0-9_$]{0,63}){0,3}$/, 'a member name or a dotted path of up to four names')
	.refine((path) => path.split('.').every((name) => !UNSAFE_MEMBERS.has(name)), 'not a prototype member');
export const DepositTransactionRuleSchema = z
	.object({
		variant: z.enum(DEPOSIT_TRANSACTION_VARIANTS),
		/** Where the quote answer carries it (default `depositTransaction`; `calldata.transaction` nests it). */
		member: memberPath.optional(),
		/** Also keep the honest transfer at `depositTransaction`: two transactions in one answer. */
		keepHonest: z.boolean().optional(),
		/** The address an `approve` or a `recipient` variant pays (default ATTACKER_ADDRESS). */
		attacker: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(),
		/** The honest forms of `chainId`: `number` 8453 (default), `decimal` "8453", `hex` "0x2105", `caip` "eip155:8453" (the listing's). */
		chainIdForm: z.enum(['number', 'decimal', 'hex', 'caip']).optional(),
	})
	.strict()
	.refine((r) => !(r.keepHonest && (r.member ?? 'depositTransaction') === 'depositTransaction'), {
		message: 'keepHonest needs another member than depositTransaction',
		path: ['member'],
	});
export type DepositTransactionRule = z.infer<typeof DepositTransactionRuleSchema>;

export const FaultRuleSchema = z
	.object({
		method: z.string().toUpperCase().optional(),
		path: z.string().min(1),
		mode: z.enum(['latency', 'status', 'drop', 'slowBody', 'dropAnswer', 'lateAnswer', 'headers', 'depositTransaction']),
		latencyMs: z.number().int().min(0).max(600_000).optional(),
		status: z.number().int().min(100).max(599).optional(),
		code: z.string().min(1).optional(),
		times: z.union([z.number().int().min(1), z.literal('always')]).optional(),
		retryAfterSeconds: z.number().int().min(0).optional(),
		/** Matching requests let through before the rule applies (e.g. the repeat after a 401 renewal). */
		skip: z.number().int().min(0).optional(),
		/** A status fault's raw body instead of the JSON error (any shape: text, HTML, empty). */
		body: z.string().max(1_000_000).optional(),
		contentType: z.string().min(1).optional(),
		/** Extra answer headers: on a status fault's answer, or (mode `headers`) on the handler's own answer. */
		headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/), z.string().max(1000)).optional(),
		/** Mode `depositTransaction`: the quote handler itself writes this transfer into the quote it creates (EVM sources). */
		depositTransaction: DepositTransactionRuleSchema.optional(),
	})
	.refine((r) => (r.mode === 'depositTransaction') === (r.depositTransaction !== undefined), {
		message: 'mode depositTransaction goes with a depositTransaction object, and only it',
		path: ['depositTransaction'],
	});
export type FaultRule = z.infer<typeof FaultRuleSchema>;

interface ActiveFault extends FaultRule {
	id: number;
	applied: number;
	skipped: number;
}

const FAULT_KEY = Symbol('sandboxFault');
/** Modes the hooks leave to a handler. */
const HANDLER_MODES = new Set<FaultRule['mode']>(['depositTransaction']);
type MarkedRequest = FastifyRequest & { [FAULT_KEY]?: ActiveFault };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class FaultInjector {
	private rules: ActiveFault[] = [];
	private nextId = 1;
	/** Told when a dropAnswer or lateAnswer fault withholds an answer, so the app's request log records it at once. */
	onAnswerWithheld?: (request: FastifyRequest, status: number, mode: 'dropAnswer' | 'lateAnswer') => void;

	add(rule: FaultRule): ActiveFault {
		const active: ActiveFault = { ...FaultRuleSchema.parse(rule), id: this.nextId++, applied: 0, skipped: 0 };
		this.rules.push(active);
		return active;
	}

	replace(rules: FaultRule[]): void {
		this.rules = [];
		for (const r of rules) this.add(r);
	}

	clear(): void {
		this.rules = [];
	}

	list(): ActiveFault[] {
		return this.rules.map((r) => ({ ...r }));
	}

	/**
	 * Takes one use of the first rule matching the request (and `accept`), dropping rules that are
	 * used up. Rules a handler applies itself (`depositTransaction`) are taken only by that handler.
	 */
	take(method: string, routePath: string | undefined, urlPath: string, accept: (rule: FaultRule) => boolean = (r) => !HANDLER_MODES.has(r.mode)): ActiveFault | undefined {
		const rule = this.rules.find(
			(r) => (!r.method || r.method === method) && (r.path === routePath || r.path === urlPath) && accept(r),
		);
		if (!rule) return undefined;
		if (rule.skipped < (rule.skip ?? 0)) {
			rule.skipped++;
			return undefined;
		}
		rule.applied++;
		const times = rule.times ?? 1;
		if (times !== 'always' && rule.applied >= times) this.rules = this.rules.filter((r) => r !== rule);
		return { ...rule };
	}

	/** A handler's own rule for this request (mode `mode`, and `accept`), one use taken; control requests never get one. */
	takeForHandler(request: FastifyRequest, mode: FaultRule['mode'], accept: (rule: FaultRule) => boolean = () => true): ActiveFault | undefined {
		if (isControlRequest(request)) return undefined;
		return this.take(request.method, request.routeOptions.url, request.url.split('?')[0], (r) => r.mode === mode && accept(r));
	}

	/** onRequest hook: latency, status and drop faults act before the handler runs. */
	readonly onRequest: onRequestAsyncHookHandler = async (request, reply) => {
		// the control endpoints are never faulted
		if (isControlRequest(request)) return;
		const urlPath = request.url.split('?')[0];
		const fault = this.take(request.method, request.routeOptions.url, urlPath);
		if (!fault) return;
		if (fault.mode === 'latency') {
			await sleep(fault.latencyMs ?? 1000);
			return;
		}
		if (fault.mode === 'drop') {
			request.raw.socket.destroy();
			return reply.hijack();
		}
		if (fault.mode === 'status') return sendFaultStatus(reply, fault);
		(request as MarkedRequest)[FAULT_KEY] = fault;
	};

	/**
	 * onSend hook, after the handler acted: dropAnswer destroys the connection instead of answering,
	 * lateAnswer holds the answer `latencyMs`, slowBody trickles it out in chunks over `latencyMs`,
	 * headers adds its headers to the answer.
	 */
	readonly onSend: onSendHookHandler<unknown> = async (request, reply, payload) => {
		const fault = (request as MarkedRequest)[FAULT_KEY];
		if (!fault) return payload;
		if (fault.mode === 'headers') {
			for (const [name, value] of Object.entries(fault.headers ?? {})) reply.header(name, value);
			return payload;
		}
		if (fault.mode === 'dropAnswer' || fault.mode === 'lateAnswer') this.onAnswerWithheld?.(request, reply.statusCode, fault.mode);
		if (fault.mode === 'dropAnswer') {
			request.raw.socket.destroy();
			return payload;
		}
		if (fault.mode === 'lateAnswer') {
			await sleep(fault.latencyMs ?? 1000);
			return payload;
		}
		if (fault.mode !== 'slowBody' || payload === null || payload === undefined) return payload;
		const bytes = Buffer.from(typeof payload === 'string' ? payload : payload instanceof Buffer ? payload : '');
		reply.removeHeader('content-length');
		return Readable.from(trickle(bytes, fault.latencyMs ?? 2000));
	};

	/** Installs both hooks on an app (call before the app is ready). */
	install(app: FastifyInstance): void {
		app.addHook('onRequest', this.onRequest);
		app.addHook('onSend', this.onSend);
	}
}

function sendFaultStatus(reply: FastifyReply, fault: ActiveFault): FastifyReply {
	const status = fault.status ?? 503;
	if (fault.retryAfterSeconds !== undefined) reply.header('retry-after', String(fault.retryAfterSeconds));
	for (const [name, value] of Object.entries(fault.headers ?? {})) reply.header(name, value);
	if (fault.body !== undefined) return reply.code(status).type(fault.contentType ?? 'text/plain').send(fault.body);
	const code = fault.code ?? (status >= 500 ? 'service_unavailable' : 'injected_fault');
	return reply.code(status).send({ error: { code, message: `sandbox fault injected (status ${status})` } });
}

async function* trickle(bytes: Buffer, totalMs: number): AsyncGenerator<Buffer> {
	const chunks = Math.max(1, Math.min(bytes.length, 10));
	const size = Math.ceil(bytes.length / chunks);
	for (let i = 0; i < bytes.length; i += size) {
		yield bytes.subarray(i, i + size);
		if (i + size < bytes.length) await sleep(totalMs / chunks);
	}
}
