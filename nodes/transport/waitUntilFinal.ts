/**
 * The one "wait until final" loop of both action nodes: read again every interval until a state ends
 * the wait, or the deadline passes. Sleeps with n8n's `sleep` (no timers in shipped code).
 */
import { sleep } from 'n8n-workflow';

export interface Wait<S> {
	/** The state already known (the first read). */
	first: S;
	read: () => Promise<S>;
	/** Why this state ends the wait ('final', ...), or undefined to keep waiting. */
	endOf: (state: S) => string | undefined;
	intervalMs: number;
	/** Epoch ms after which no further read starts. */
	deadline: number;
	/** Shorten the last sleep so the last read lands on the deadline (else stop when a full interval no longer fits). */
	lastReadOnDeadline: boolean;
}

export interface WaitEnd<S> {
	state: S;
	endedBy: string;
}

export async function waitUntilFinal<S>(wait: Wait<S>): Promise<WaitEnd<S>> {
	let state = wait.first;
	for (;;) {
		const end = wait.endOf(state);
		if (end !== undefined) return { state, endedBy: end };
		const remaining = wait.deadline - Date.now();
		const fits = wait.lastReadOnDeadline ? remaining > 0 : remaining >= wait.intervalMs;
		if (!fits) return { state, endedBy: 'timeout' };
		await sleep(Math.min(wait.intervalMs, remaining));
		state = await wait.read();
	}
}
