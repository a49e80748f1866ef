/** Bounded concurrency of the action nodes: order, the in-flight bound, and stopping after a failure. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { runItems } from '../../../nodes/n8n/items';
import { isRetryableStatus, nextDelayMs, parseRetryAfter, DEFAULT_RETRY } from '../../../nodes/shared/retries';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What runItems uses of a node run: its items, continueOnFail, its node (for the error). */
function nodeRun(count: number): IExecuteFunctions {
	const node = { name: 'Test', type: 'CUSTOM.test', typeVersion: 1, position: [0, 0], parameters: {} };
	return { getInputData: () => Array.from({ length: count }, () => ({ json: {} })), continueOnFail: () => false, getNode: () => node } as unknown as IExecuteFunctions;
}

describe('runItems', () => {
	it('keeps input order whatever the completion order, with at most `concurrency` in flight', async () => {
		let inFlight = 0;
		let peak = 0;
		const out = await runItems(nodeRun(12), { concurrency: 5 }, async (i: number) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await tick((12 - i) * 2);
			inFlight--;
			return { value: i * 10 };
		});
		expect(out).toEqual(Array.from({ length: 12 }, (_, i) => ({ json: { value: i * 10 }, pairedItem: { item: i } })));
		expect(peak).toBe(5);
	});

	it('starts no item after a failure, lets the ones in flight finish, throws the lowest failing index', async () => {
		const started: number[] = [];
		const finished: number[] = [];
		const run = runItems(nodeRun(20), { concurrency: 3 }, async (i: number) => {
			started.push(i);
			await tick(i === 1 ? 5 : 20);
			if (i === 1 || i === 2) throw new Error(`item ${i} failed`);
			finished.push(i);
			return { i };
		});
		await expect(run).rejects.toThrow('item 1 failed');
		// 0, 1 and 2 start together; 1 fails first, so nothing beyond the first batch starts.
		expect(started.sort((a, b) => a - b)).toEqual([0, 1, 2]);
		expect(finished).toEqual([0]);
	});
});

describe('retry decisions', () => {
	it('retries 429, 5xx and 409 idempotency_in_progress, never other 4xx', () => {
		expect(isRetryableStatus(429)).toBe(true);
		expect(isRetryableStatus(503)).toBe(true);
		expect(isRetryableStatus(409, 'idempotency_in_progress')).toBe(true);
		expect(isRetryableStatus(409, 'idempotency_conflict')).toBe(false);
		for (const s of [400, 401, 403, 404, 413, 415]) expect(isRetryableStatus(s)).toBe(false);
	});

	it('honours Retry-After in seconds and as a date, capped by the policy', () => {
		expect(parseRetryAfter('2')).toBe(2000);
		expect(parseRetryAfter(['1.5'])).toBe(1500);
		expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(nextDelayMs(DEFAULT_RETRY, 1, 3_600_000)).toBe(DEFAULT_RETRY.maxElapsedMs);
		// A Retry-After of 0 (or shorter than the back-off) still waits the back-off.
		expect([1, 2, 3].map((a) => nextDelayMs(DEFAULT_RETRY, a, 0))).toEqual([500, 1000, 2000]);
		expect(nextDelayMs(DEFAULT_RETRY, 1, 3000)).toBe(3000);
		expect([1, 2, 3, 4, 10].map((a) => nextDelayMs(DEFAULT_RETRY, a))).toEqual([500, 1000, 2000, 4000, 8000]);
	});
});
