/**
 * One server-sent event stream read through n8n's own HTTP helper (`helpers.httpRequest` with
 * `encoding: 'stream'`; no http/net modules, no timers: silence is measured with n8n-workflow's
 * `sleep`). The URL may carry a key in its query: nothing of the request (URL, query, the helper's
 * error) leaves this file except a redacted reason.
 *
 * Every wait here has its own end, whatever the server sends: the opening ends by its deadline
 * (a server that never sends headers, or trickles a refusal's body), and a wait for the next frame
 * ends after the time asked, however many bytes (comments, data-less frames, an endless line)
 * arrive meanwhile. The parser caps what it keeps (nodes/shared/sse.ts).
 */
import { sleep, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { SseParser, type SseEvent } from '../shared/sse';
import { redact } from '../shared/redact';
import { errorOf } from './errors';

export interface StreamRequest {
	url: string;
	/** Query parameters; they may hold secrets (listed in `secrets`). */
	qs: IDataObject;
	secrets: Array<string | undefined>;
	/** The execution's cancel signal: Stop closes the stream at once. */
	signal?: AbortSignal;
	/** Epoch ms by which the answer's headers (and a refusal's body) must have arrived; else the stream is refused. */
	openBy: number;
	/** Told the status and headers of the answer as soon as they arrive (rate-limit headers, a 429). */
	onAnswer?: (statusCode: number, headers: Record<string, unknown>) => void;
}

/** The next thing a stream gave: a frame, its end (`closed`), silence for the time asked (`silent`), or a broken connection. */
export type StreamStep =
	| { frame: SseEvent }
	| { closed: true }
	| { silent: true }
	| { broken: string };

/** Most characters of a refusal's body read to name its error code. */
const REFUSAL_BODY_CHARS = 4096;

type Decoder = InstanceType<typeof TextDecoder>;

interface StreamBody {
	[Symbol.asyncIterator](): AsyncIterator<unknown>;
	destroy?: () => void;
}

const LATE: unique symbol = Symbol('late');

/** The promise's value, or LATE when it has not settled by `until` (epoch ms); its rejection stays a rejection. */
async function settledBy<T>(promise: Promise<T>, until: number): Promise<T | typeof LATE> {
	const timer = new AbortController();
	const late = sleep(Math.max(0, until - Date.now()), timer.signal).then(
		(): typeof LATE => LATE,
		(): typeof LATE => LATE,
	);
	try {
		return await Promise.race([promise, late]);
	} finally {
		timer.abort();
	}
}

function textOf(chunk: unknown, decoder: Decoder): string {
	if (typeof chunk === 'string') return chunk;
	return chunk instanceof Uint8Array ? decoder.decode(chunk, { stream: true }) : '';
}

/** An open event stream: frames one at a time, each waited for at most the time given. */
export class EventStream {
	private readonly iterator: AsyncIterator<unknown>;
	private readonly parser = new SseParser();
	private readonly decoder: Decoder = new TextDecoder();
	private readonly queue: SseEvent[] = [];
	private pending: Promise<IteratorResult<unknown>> | undefined;
	private ended = false;

	constructor(
		private readonly body: StreamBody,
		private readonly connection: AbortController,
		private readonly secrets: Array<string | undefined>,
		private readonly release: () => void,
	) {
		this.iterator = body[Symbol.asyncIterator]();
	}

	/** The next frame, or why none came within `ms`: bytes that complete no frame do not extend the wait. */
	async next(ms: number): Promise<StreamStep> {
		const until = Date.now() + ms;
		while (this.queue.length === 0) {
			if (this.ended) return { closed: true };
			if (Date.now() >= until) return { silent: true };
			this.pending ??= this.iterator.next();
			let result: IteratorResult<unknown> | typeof LATE;
			try {
				result = await settledBy(this.pending, until);
			} catch (error) {
				this.pending = undefined;
				this.ended = true;
				return {
					broken: redact(
						String(
							(error as { code?: string; message?: string }).code ??
								(error as Error).message ??
								'connection lost',
						),
						this.secrets,
					),
				};
			}
			if (result === LATE) return { silent: true };
			this.pending = undefined;
			if (result.done) {
				this.ended = true;
				return { closed: true };
			}
			try {
				for (const frame of this.parser.push(textOf(result.value, this.decoder)))
					this.queue.push(frame);
			} catch (error) {
				this.ended = true;
				return { broken: (error as Error).message };
			}
		}
		return { frame: this.queue.shift() as SseEvent };
	}

	/** Ends the connection (idempotent); a read still pending is dropped quietly. */
	close(): void {
		this.ended = true;
		this.pending?.catch(() => undefined);
		this.connection.abort();
		this.body.destroy?.();
		this.release();
	}
}

/** The start of a refusal's body (enough for its error code), by `until` at the latest. */
async function bodyText(body: unknown, decoder: Decoder, until: number): Promise<string> {
	const text = await settledBy(bodyStart(body, decoder), until).catch(() => '');
	return text === LATE ? '' : text;
}

async function bodyStart(body: unknown, decoder: Decoder): Promise<string> {
	if (typeof body === 'string') return body.slice(0, REFUSAL_BODY_CHARS);
	if (!body || typeof (body as StreamBody)[Symbol.asyncIterator] !== 'function') return '';
	let text = '';
	for await (const chunk of body as StreamBody) {
		text += textOf(chunk, decoder);
		if (text.length >= REFUSAL_BODY_CHARS) break;
	}
	return text.slice(0, REFUSAL_BODY_CHARS);
}

/** Why the service refused the stream: the HTTP status and the error code of its body. */
function refusalOf(statusCode: number, text: string, secrets: Array<string | undefined>): string {
	let parsed: unknown = undefined;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: the status alone says it
	}
	const { code } = errorOf(parsed);
	return redact(`HTTP ${statusCode}${code ? ` ${code}` : ''}`, secrets);
}

/**
 * Opens the stream: an EventStream, or `{ refused }` saying why not (an HTTP error, a body that is
 * not an event stream, a failed connection, no answer by `openBy`). Stop (the signal) during the
 * opening is `{ refused }` too; the caller checks its signal.
 */
export async function openEventStream(
	ctx: IExecuteFunctions,
	request: StreamRequest,
): Promise<EventStream | { refused: string }> {
	const connection = new AbortController();
	const onStop = () => connection.abort();
	request.signal?.addEventListener('abort', onStop, { once: true });
	const release = () => request.signal?.removeEventListener('abort', onStop);
	if (request.signal?.aborted) connection.abort();
	type Answer = { statusCode: number; headers: Record<string, unknown>; body: unknown };
	const answer = ctx.helpers.httpRequest({
		method: 'GET',
		url: request.url,
		qs: request.qs,
		headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' },
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		abortSignal: connection.signal,
		// A redirect is a refusal: the URL's query holds the key, and it goes to no other address.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	}) as Promise<Answer>;
	let res: Answer | typeof LATE;
	try {
		res = await settledBy(answer, request.openBy);
	} catch (error) {
		release();
		const e = error as { code?: string; cause?: { code?: string } };
		return {
			refused: redact(
				`the connection failed (${e.code ?? e.cause?.code ?? 'no answer'})`,
				request.secrets,
			),
		};
	}
	if (res === LATE) {
		// The answer may still come after the abort: its body is dropped, its failure ignored.
		answer.then(
			(late) => (late.body as StreamBody | undefined)?.destroy?.(),
			() => undefined,
		);
		connection.abort();
		release();
		return { refused: 'no answer headers in time' };
	}
	request.onAnswer?.(res.statusCode, res.headers ?? {});
	const contentType = String(res.headers?.['content-type'] ?? '');
	if (res.statusCode !== 200 || !/^text\/event-stream/i.test(contentType)) {
		const text = await bodyText(res.body, new TextDecoder(), request.openBy);
		(res.body as StreamBody | undefined)?.destroy?.();
		connection.abort();
		release();
		const why =
			res.statusCode === 200
				? `HTTP 200 with content type "${contentType}", not an event stream`
				: refusalOf(res.statusCode, text, request.secrets);
		return { refused: redact(why, request.secrets) };
	}
	return new EventStream(res.body as StreamBody, connection, request.secrets, release);
}
