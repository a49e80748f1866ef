/**
 * A total deadline for one HTTP exchange. n8n's `timeout` option is an idle timeout: a server that
 * sends a byte now and then keeps it from firing. Here the exchange gets a signal that aborts when
 * the deadline passes (or on Stop), and the caller stops waiting at the deadline even where a layer
 * ignores the signal. No timers: n8n-workflow's `sleep`, ended early when the exchange settles.
 */
import { sleep } from 'n8n-workflow';

/** The deadline of each request of the gateway's authentication (challenge, verify); tests lower `ms`. */
export const authDeadline = { ms: 30_000 };

/** The code of DeadlineExceeded: a network failure to the retry rules (nodes/shared/retries.ts). */
export const DEADLINE_CODE = 'ERR_DEADLINE';

/** The deadline passed before the exchange completed. */
export class DeadlineExceeded extends Error {
	readonly code = DEADLINE_CODE;

	constructor(readonly ms: number) {
		super(`no complete answer within ${ms < 10_000 ? ms / 1000 : Math.round(ms / 1000)} s (the deadline of one attempt)`);
		this.name = 'DeadlineExceeded';
	}
}

/**
 * Runs `exchange` with a signal that aborts after `ms` or when `stop` aborts, and settles by the
 * deadline at the latest: with the exchange's result, its error, or DeadlineExceeded.
 */
export async function withDeadline<T>(ms: number, stop: AbortSignal | undefined, exchange: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const connection = new AbortController();
	const timer = new AbortController();
	const onStop = () => connection.abort(stop?.reason);
	if (stop?.aborted) onStop();
	else stop?.addEventListener('abort', onStop, { once: true });
	let expired: DeadlineExceeded | undefined;
	const deadline = sleep(ms, timer.signal).then(() => {
		expired = new DeadlineExceeded(ms);
		connection.abort(expired);
		throw expired;
	});
	const running = exchange(connection.signal);
	try {
		return await Promise.race([running, deadline]);
	} catch (error) {
		// Aborted by the deadline, the exchange may fail with the helper's own cancel error first.
		throw expired ?? error;
	} finally {
		timer.abort();
		stop?.removeEventListener('abort', onStop);
		running.catch(() => undefined);
		deadline.catch(() => undefined);
	}
}
