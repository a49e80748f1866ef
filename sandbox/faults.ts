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
export const FaultRuleSchema = z.object({
	method: z.string().toUpperCase().optional(),
	path: z.string().min(1),
	mode: z.enum(['latency', 'status', 'drop', 'slowBody', 'dropAnswer', 'lateAnswer', 'headers']),
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
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;

interface ActiveFault extends FaultRule {
	id: number;
	applied: number;
	skipped: number;
}

const FAULT_KEY = Symbol('sandboxFault');
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

	/** Takes one use of the first rule matching the request, dropping rules that are used up. */
	take(method: string, routePath: string | undefined, urlPath: string): ActiveFault | undefined {
		const rule = this.rules.find(
			(r) => (!r.method || r.method === method) && (r.path === routePath || r.path === urlPath),
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
