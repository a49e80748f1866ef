/**
 * A total deadline for one exchange: n8n's `timeout` is an idle timeout, which a server sending a
 * byte now and then never trips. No timers: n8n-workflow's `sleep`, ended when the exchange settles.
 */
import { sleep } from 'n8n-workflow';

/** The deadline of each request of the gateway credential's login (challenge, verify); tests lower `ms`. */
export const authDeadline = { ms: 30_000 };

/** The deadline of one attempt passed before its exchange completed (a network failure to the retry rules). */
export class DeadlineExceeded extends Error {
	readonly code = 'ERR_DEADLINE';

	constructor(readonly ms: number) {
		super(`no complete answer within ${ms < 10_000 ? ms / 1000 : Math.round(ms / 1000)} s (the deadline of one attempt)`);
		this.name = 'DeadlineExceeded';
	}
}

/** `signal` aborts at the deadline or on Stop; `settle` ends the wait there even where a layer ignores the signal. */
export function startDeadline(ms: number, stop: AbortSignal | undefined) {
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
	deadline.catch(() => undefined);
	return {
		signal: connection.signal,
		async settle<T>(running: Promise<T>): Promise<T> {
			running.catch(() => undefined);
			try {
				return await Promise.race([running, deadline]);
			} catch (error) {
				// Aborted by the deadline, the exchange may fail with the helper's own cancel error first.
				throw expired ?? error;
			} finally {
				timer.abort();
				stop?.removeEventListener('abort', onStop);
			}
		},
	};
}
