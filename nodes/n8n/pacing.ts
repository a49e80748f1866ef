/**
 * The n8n side of pacing (the logic is nodes/shared/pacing.ts): one RatePacer per credential and
 * endpoint in this process (a bounded number, least recently used dropped first), waits with n8n's
 * `sleep` that end at once on Stop, the On Rate Limit option of each item, and the batch's progress
 * (log lines, a closing execution hint). An item's denials are bounded: each waits at least a
 * growing back-off, counts against Max Rate Limit Wait, and a call stops after maxDenials of them.
 */
import { sleep, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';
import { BatchProgress, summaryLine } from '../shared/batchProgress';
import {
	askedWaitMs,
	denialBackoffMs,
	RatePacer,
	readLimitHeaders,
	type LimitReport,
	type PacerTuning,
	type WaitReason,
} from '../shared/pacing';
import { ItemError } from './errors';
import { getNodeParameter } from './items';

/** What the transport needs of an answer. */
export interface PacedAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
}

/** After a 429: try again (the next `send` waits), or fail, saying why when it is more than the 429 itself. */
export type DenialOutcome = { retry: true } | { retry: false; reason?: string };

/** The pacing of one call, as transport.ts uses it around each attempt. */
export interface CallPacing {
	/** Waits until the pacer admits the request. */
	admit(): Promise<void>;
	/** Tells the pacer what the answer said (undefined: no answer, the slot is freed). */
	answered(answer: PacedAnswer | undefined): void;
	/** After a 429: whether the item may wait and try again. */
	denied(): DenialOutcome;
}

export type OnRateLimit = 'wait' | 'fail';

export interface RateLimitPolicy {
	onRateLimit: OnRateLimit;
	/** Most time one item may wait for the limit, in all. */
	maxWaitMs: number;
}

/**
 * The pacers' settings in this process (tests lower the back-off to see many denials quickly):
 * the RatePacer tuning of nodes/shared/pacing.ts, how many pacers are kept, and how many 429s in
 * a row one call takes before its item fails.
 */
export const pacerSettings: Pick<PacerTuning, 'denialWaitMs' | 'maxDenialWaitMs' | 'horizonMs'> & {
	maxPacers: number;
	maxDenials: number;
} = {
	denialWaitMs: 1000,
	maxDenialWaitMs: 30_000,
	horizonMs: 60_000,
	maxPacers: 256,
	maxDenials: 10,
};

/** Pacers live as long as the process: executions of the same credential share them. Oldest use first. */
const pacers = new Map<string, RatePacer>();

export function pacerFor(key: string): RatePacer {
	let pacer = pacers.get(key);
	if (pacer) {
		// Most recently used last: the first entry is the one to drop.
		pacers.delete(key);
		pacers.set(key, pacer);
		return pacer;
	}
	const { denialWaitMs, maxDenialWaitMs, horizonMs } = pacerSettings;
	pacer = new RatePacer({ denialWaitMs, maxDenialWaitMs, horizonMs });
	pacers.set(key, pacer);
	for (const oldest of pacers.keys()) {
		if (pacers.size <= pacerSettings.maxPacers) break;
		pacers.delete(oldest);
	}
	return pacer;
}

/** How many pacers this process keeps now (tests). */
export function pacerCount(): number {
	return pacers.size;
}

/** Forgets every pacer (tests: each test starts with a fresh sandbox). */
export function clearPacers(): void {
	pacers.clear();
}

function seconds(ms: number): string {
	return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

/** Which header asked for a wait, for the message. */
function askedBy(report: LimitReport | undefined): string {
	return report?.retryAfterMs !== undefined ? 'Retry-After' : 'X-RateLimit-Reset';
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

const runs = new WeakMap<object, ExecutionPacing>();

/** The pacing of this node run, made on first use (n8n makes a new context for every run of a node). */
export function executionPacing(ctx: IExecuteFunctions): ExecutionPacing {
	let pacing = runs.get(ctx);
	if (pacing === undefined) {
		pacing = new ExecutionPacing(ctx, ctx.getInputData().length);
		runs.set(ctx, pacing);
	}
	return pacing;
}

/** The pacing of one node run: the items' policies, their waits and the batch's progress. */
export class ExecutionPacing {
	private readonly progress: BatchProgress;
	private readonly waitedByItem = new Map<number, number>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		total: number,
	) {
		this.progress = new BatchProgress(total, Date.now());
	}

	/** The pacing of one call to `endpoint` ("<credential handle>|<METHOD> <path template>"). */
	forCall(endpoint: string, itemIndex = 0): CallPacing {
		const policy = this.policyOf(itemIndex);
		const pacer = pacerFor(endpoint);
		const what = endpoint.slice(endpoint.lastIndexOf('|') + 1);
		let denials = 0;
		let notBefore = 0;
		let last: LimitReport | undefined;
		let admitted = false;
		return {
			admit: async () => {
				// Fail the Item: no waiting at all, the first 429 fails the item (transport.ts).
				if (policy.onRateLimit === 'fail') return;
				await this.admitted(pacer, { itemIndex, policy, what, notBefore });
				admitted = true;
			},
			answered: (answer) => {
				if (!admitted) return;
				admitted = false;
				// No answer (the connection failed) frees the slot and says nothing of the limit.
				const now = Date.now();
				last = answer && readLimitHeaders(answer.statusCode, answer.headers, now);
				pacer.finish(now, last);
			},
			denied: () => {
				if (policy.onRateLimit === 'fail') return { retry: false };
				denials++;
				const now = Date.now();
				const asked = last ? askedWaitMs(last, now) : undefined;
				const wait = Math.max(asked ?? 0, denialBackoffMs(pacerSettings, denials));
				const waited = this.waitedByItem.get(itemIndex) ?? 0;
				if (denials >= pacerSettings.maxDenials) {
					return {
						retry: false,
						reason: `The service refused ${what} ${denials} times in a row (429); the item stopped trying after ${seconds(waited)} of waiting.`,
					};
				}
				if (waited + wait > policy.maxWaitMs) {
					const ask =
						asked !== undefined && asked >= wait
							? `the service asks to wait ${seconds(asked)} (${askedBy(last)})`
							: `the next try would wait ${seconds(wait)}`;
					return {
						retry: false,
						reason: `Rate limit: ${ask}, past the item's Max Rate Limit Wait of ${seconds(policy.maxWaitMs)} (already waited ${seconds(waited)}). Nothing more was sent for this item.`,
					};
				}
				notBefore = now + wait;
				return { retry: true };
			},
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
		const mode = getNodeParameter(this.ctx, 'options.onRateLimit', itemIndex, 'wait');
		const seconds = Number(
			getNodeParameter(this.ctx, 'options.maxRateLimitWait', itemIndex, DEFAULT_MAX_WAIT_SECONDS),
		);
		const maxWaitMs =
			Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_MAX_WAIT_SECONDS * 1000;
		return { onRateLimit: mode === 'fail' ? 'fail' : 'wait', maxWaitMs };
	}

	private assertRunning(itemIndex: number): void {
		if (this.ctx.getExecutionCancelSignal?.()?.aborted) {
			throw new ItemError(this.ctx.getNode(), 'The execution was stopped; nothing more was sent', {
				itemIndex,
			});
		}
	}

	/**
	 * Waits until the item's own back-off after a denial is over (`notBefore`) and `pacer` admits a
	 * start; each wait counts against the item's maximum.
	 */
	private async admitted(
		pacer: RatePacer,
		call: { itemIndex: number; policy: RateLimitPolicy; what: string; notBefore: number },
	): Promise<void> {
		for (;;) {
			this.assertRunning(call.itemIndex);
			const now = Date.now();
			const admission =
				now < call.notBefore
					? { go: false as const, waitMs: call.notBefore - now, reason: 'retry-after' as const }
					: pacer.admit(now);
			if (admission.go) return;
			const waited = this.waitedByItem.get(call.itemIndex) ?? 0;
			if (waited + admission.waitMs > call.policy.maxWaitMs)
				throw this.waitTooLong(call, admission.waitMs, waited);
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

	private waitTooLong(
		call: { itemIndex: number; policy: RateLimitPolicy; what: string },
		waitMs: number,
		waited: number,
	): ItemError {
		return new ItemError(
			this.ctx.getNode(),
			`Rate limit: ${call.what} is allowed again in ${Math.ceil(waitMs / 1000)} s, past the item's Max Rate Limit Wait of ${call.policy.maxWaitMs / 1000} s (already waited ${Math.round(waited / 1000)} s)`,
			{
				itemIndex: call.itemIndex,
				description:
					'Nothing was sent for this item. Raise "Max Rate Limit Wait", lower the batch, or run it again later.',
			},
		);
	}

	private logIfDue(): void {
		const line = this.progress.lineIfDue(Date.now());
		if (line !== undefined) this.ctx.logger.info(`${this.ctx.getNode().name}: ${line}`);
	}
}

// ---------------------------------------------------------------- the options

export const DEFAULT_MAX_WAIT_SECONDS = 300;

/** Options of the operations that send (quote, offramp, onramp, submit). */
export const rateLimitOptions: INodeProperties[] = [
	{
		displayName: 'On Rate Limit',
		name: 'onRateLimit',
		type: 'options',
		default: 'wait',
		options: [
			{
				name: 'Fail the Item',
				value: 'fail',
				description: 'Fail the item at the first 429 rate_limited, without waiting',
			},
			{
				name: 'Wait',
				value: 'wait',
				description:
					"Pace the items by the service's Retry-After and X-RateLimit headers, each item waiting at most Max Rate Limit Wait",
			},
		],
		description:
			'What an item does when the service limits the key. Waiting is safe: every retry sends the same idempotency key.',
	},
	{
		displayName: 'Max Rate Limit Wait (Seconds)',
		name: 'maxRateLimitWait',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_MAX_WAIT_SECONDS,
		description:
			'With On Rate Limit = Wait: the longest one item waits for the limit in all; past it the item fails with rate_limited',
	},
];
