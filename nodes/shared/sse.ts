/**
 * Server-sent events (the WHATWG "text/event-stream" format), parsed chunk by chunk: lines end in
 * LF, CR LF or CR; `event`, `data` (joined with LF when repeated), `id` and `retry` fields; lines
 * starting with ':' are comments; a blank line dispatches the event. Pure: no n8n, no I/O.
 *
 * Bounded and linear whatever the body is: each chunk is scanned once (the unfinished line is kept,
 * never rescanned), a line and a frame's data are capped, and a body over either cap is refused (the
 * caller drops the stream). The service's frames are a few dozen characters (`data: {"status": ...}`).
 */
import { ProtocolError } from './errors';

export interface SseEvent {
	/** The `event` field, 'message' when the frame names none. */
	event: string;
	data: string;
	id?: string;
	retry?: number;
}

/** Longest line kept while waiting for its end; a longer one means the body is not this service's event stream. */
export const MAX_SSE_LINE = 64 * 1024;
/** Most characters of data one frame may gather before its blank line (its `data:` lines together). */
export const MAX_SSE_FRAME_DATA = 64 * 1024;

export class SseParser {
	/** The start of a line whose end has not arrived yet. */
	private partial = '';
	/** A CR ended the previous chunk: a LF at the start of the next one belongs to it. */
	private pendingCr = false;
	private eventName = '';
	private dataLines: string[] = [];
	private dataLength = 0;
	private hasData = false;
	private lastId: string | undefined;
	private retry: number | undefined;

	/** Feeds a piece of the body; returns the events it completed (none while a frame is open). Throws past a cap. */
	push(chunk: string): SseEvent[] {
		const events: SseEvent[] = [];
		let start = this.pendingCr && chunk.startsWith('\n') ? 1 : 0;
		this.pendingCr = false;
		// The next LF and CR from `start`, each searched again only once passed: every character is looked at once.
		let lf = chunk.indexOf('\n', start);
		let cr = chunk.indexOf('\r', start);
		while (lf >= 0 || cr >= 0) {
			const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
			this.checkLine(end - start);
			const line = this.partial + chunk.slice(start, end);
			this.partial = '';
			start = end + 1;
			if (end === cr) {
				if (start === chunk.length) this.pendingCr = true;
				else if (start === lf) start++;
			}
			if (lf >= 0 && lf < start) lf = chunk.indexOf('\n', start);
			if (cr >= 0 && cr < start) cr = chunk.indexOf('\r', start);
			const event = this.line(line);
			if (event) events.push(event);
		}
		this.checkLine(chunk.length - start);
		this.partial += chunk.slice(start);
		return events;
	}

	/** The unfinished line may grow by `more` characters. */
	private checkLine(more: number): void {
		if (this.partial.length + more > MAX_SSE_LINE)
			throw new ProtocolError(`an event-stream line is longer than ${MAX_SSE_LINE} characters`, {
				reason: 'sse_line_too_long',
			});
	}

	private line(line: string): SseEvent | undefined {
		if (line === '') return this.dispatch();
		if (line.startsWith(':')) return undefined;
		const colon = line.indexOf(':');
		const field = colon < 0 ? line : line.slice(0, colon);
		let value = colon < 0 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'event') this.eventName = value;
		else if (field === 'data') this.addData(value);
		else if (field === 'id' && !value.includes('\0')) this.lastId = value;
		else if (field === 'retry' && /^\d{1,9}$/.test(value)) this.retry = Number(value);
		return undefined;
	}

	private addData(value: string): void {
		this.dataLength += value.length + (this.hasData ? 1 : 0);
		if (this.dataLength > MAX_SSE_FRAME_DATA)
			throw new ProtocolError(
				`an event-stream frame holds more than ${MAX_SSE_FRAME_DATA} characters of data`,
				{ reason: 'sse_frame_too_long' },
			);
		this.dataLines.push(value);
		this.hasData = true;
	}

	private dispatch(): SseEvent | undefined {
		const event: SseEvent | undefined = this.hasData
			? {
					event: this.eventName === '' ? 'message' : this.eventName,
					data: this.dataLines.join('\n'),
					...(this.lastId !== undefined ? { id: this.lastId } : {}),
					...(this.retry !== undefined ? { retry: this.retry } : {}),
				}
			: undefined;
		this.eventName = '';
		this.dataLines = [];
		this.dataLength = 0;
		this.hasData = false;
		return event;
	}
}

/** The status named by an order stream's `event: status` frame (`data: {"status": "..."}`), else undefined. */
export function statusOfFrame(frame: SseEvent): string | undefined {
	if (frame.event !== 'status') return undefined;
	try {
		const data = JSON.parse(frame.data) as { status?: unknown };
		return typeof data?.status === 'string' && data.status !== '' ? data.status : undefined;
	} catch {
		return undefined;
	}
}
