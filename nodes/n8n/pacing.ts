/**
 * The n8n side of pacing (the logic is nodes/shared/pacing.ts): one RatePacer per credential and
 * endpoint in this process, waits with n8n's `sleep` that end at once on Stop, the On Rate Limit
 * option of each item, and the batch's progress (log lines, a closing execution hint).
 */
import { NodeOperationError, sleep, type IExecuteFunctions } from 'n8n-workflow';
import { BatchProgress, summaryLine } from '../shared/batchProgress';
import { RatePacer, readLimitHeaders, type WaitReason } from '../shared/pacing';
import { DEFAULT_MAX_WAIT_SECONDS } from './batchOptions';
import { runParameter } from './runParameters';

/** What the transport needs of an answer. */
export interface PacedAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
}

/** The pacing of one call, as transport.ts uses it. */
export interface CallPacing {
	/** Waits until the pacer admits the request, sends it, and tells the pacer what the answer said. */
	send<A extends PacedAnswer>(exchange: () => Promise<A>): Promise<A>;
	/** After a 429: true when the item may wait and try again (the next `send` waits), false to fail now. */
	mayRetryDenial(): boolean;
}

export type OnRateLimit = 'wait' | 'fail';

export interface RateLimitPolicy {
	onRateLimit: OnRateLimit;
	/** Most time one item may wait for the limit, in all. */
	maxWaitMs: number;
}

/** Pacers live as long as the process: executions of the same credential share them. */
const pacers = new Map<string, RatePacer>();

export function pacerFor(key: string): RatePacer {
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new RatePacer();
		pacers.set(key, pacer);
	}
	return pacer;
}

/** Forgets every pacer (tests: each test starts with a fresh sandbox). */
export function clearPacers(): void {
	pacers.clear();
}

/** Sleeps `ms`, or throws at once when the execution is stopped. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (!signal) return await sleep(ms);
	let onAbort = () => {};
	const stopped = new Promise<never>((_, reject) => {
		onAbort = () => reject(new Error('stopped'));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		// n8n 2.x's sleep also takes the signal (and clears its timer); the race covers versions whose sleep does not.
		await Promise.race([sleep(ms, signal), stopped]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** The pacing of one node run: the items' policies, their waits and the batch's progress. */
export class ExecutionPacing {
	private readonly progress: BatchProgress;
	private readonly waitedByItem = new Map<number, number>();

	constructor(private readonly ctx: IExecuteFunctions, total: number) {
		this.progress = new BatchProgress(total, Date.now());
	}

	/** The pacing of one call to `endpoint` ("<credential handle>|<METHOD> <path>"). */
	forCall(endpoint: string, itemIndex = 0): CallPacing {
		const policy = this.policyOf(itemIndex);
		const pacer = pacerFor(endpoint);
		const what = endpoint.slice(endpoint.lastIndexOf('|') + 1);
		return {
			send: async (exchange) => {
				// Fail the Item: no waiting at all, the first 429 fails the item (transport.ts).
				if (policy.onRateLimit === 'fail') return await exchange();
				await this.admitted(pacer, { itemIndex, policy, what });
				let answer: PacedAnswer | undefined;
				try {
					const received = await exchange();
					answer = received;
					return received;
				} finally {
					// No answer (the connection failed) frees the slot and says nothing of the limit.
					const now = Date.now();
					pacer.finish(now, answer && readLimitHeaders(answer.statusCode, answer.headers, now));
				}
			},
			mayRetryDenial: () =>
				policy.onRateLimit === 'wait' && (this.waitedByItem.get(itemIndex) ?? 0) + pacer.waitFor(Date.now()) <= policy.maxWaitMs,
		};
	}

	/** One item finished (its output or its error). */
	itemDone(): void {
		this.progress.itemDone();
		this.logIfDue();
	}

	/** The closing hint and log line, when the batch waited for the limit. */
	finish(): void {
		const figures = this.progress.figures(Date.now());
		if (figures.waitedMs === 0) return;
		const message = summaryLine(figures);
		this.ctx.logger.info(`${this.ctx.getNode().name}: ${message}`);
		this.ctx.addExecutionHints({ message, type: 'info', location: 'outputPane' });
	}

	private policyOf(itemIndex: number): RateLimitPolicy {
		const mode = runParameter(this.ctx, 'options.onRateLimit', itemIndex, 'wait');
		const seconds = Number(runParameter(this.ctx, 'options.maxRateLimitWait', itemIndex, DEFAULT_MAX_WAIT_SECONDS));
		const maxWaitMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_MAX_WAIT_SECONDS * 1000;
		return { onRateLimit: mode === 'fail' ? 'fail' : 'wait', maxWaitMs };
	}

	private assertRunning(itemIndex: number): void {
		if (this.ctx.getExecutionCancelSignal?.()?.aborted) {
			throw new NodeOperationError(this.ctx.getNode(), 'The execution was stopped; nothing more was sent', { itemIndex });
		}
	}

	/** Waits until `pacer` admits a start; each wait counts against the item's maximum. */
	private async admitted(pacer: RatePacer, call: { itemIndex: number; policy: RateLimitPolicy; what: string }): Promise<void> {
		for (;;) {
			this.assertRunning(call.itemIndex);
			const admission = pacer.admit(Date.now());
			if (admission.go) return;
			const waited = this.waitedByItem.get(call.itemIndex) ?? 0;
			if (waited + admission.waitMs > call.policy.maxWaitMs) throw this.waitTooLong(call, admission.waitMs, waited);
			await this.wait(admission.waitMs, call.itemIndex, admission.reason);
			this.waitedByItem.set(call.itemIndex, waited + admission.waitMs);
		}
	}

	private async wait(ms: number, itemIndex: number, reason: WaitReason): Promise<void> {
		if (reason !== 'in-flight') this.progress.waitStarted(Date.now());
		try {
			await pause(ms, this.ctx.getExecutionCancelSignal?.());
		} catch {
			this.assertRunning(itemIndex);
		} finally {
			if (reason !== 'in-flight') this.progress.waitEnded(Date.now());
			this.logIfDue();
		}
	}

	private waitTooLong(call: { itemIndex: number; policy: RateLimitPolicy; what: string }, waitMs: number, waited: number): NodeOperationError {
		return new NodeOperationError(
			this.ctx.getNode(),
			`Rate limit: ${call.what} is allowed again in ${Math.ceil(waitMs / 1000)} s, past the item's Max Rate Limit Wait of ${call.policy.maxWaitMs / 1000} s (already waited ${Math.round(waited / 1000)} s)`,
			{
				itemIndex: call.itemIndex,
				description: 'Nothing was sent for this item. Raise "Max Rate Limit Wait", lower the batch, or run it again later.',
			},
		);
	}

	private logIfDue(): void {
		const line = this.progress.lineIfDue(Date.now());
		if (line !== undefined) this.ctx.logger.info(`${this.ctx.getNode().name}: ${line}`);
	}
}
