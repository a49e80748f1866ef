/**
 * Server-sent events (the WHATWG "text/event-stream" format), parsed chunk by chunk: lines end in
 * LF, CR LF or CR; `event`, `data` (joined with LF when repeated), `id` and `retry` fields; lines
 * starting with ':' are comments; a blank line dispatches the event. Pure: no n8n, no I/O.
 */

export interface SseEvent {
	/** The `event` field, 'message' when the frame names none. */
	event: string;
	data: string;
	id?: string;
	retry?: number;
}

/** Longest line kept while waiting for its end; a longer one means the body is not an event stream. */
export const MAX_SSE_LINE = 1024 * 1024;

export class SseParser {
	private buffer = '';
	/** A CR ended the previous chunk: a LF at the start of the next one belongs to it. */
	private pendingCr = false;
	private eventName = '';
	private dataLines: string[] = [];
	private hasData = false;
	private lastId: string | undefined;
	private retry: number | undefined;

	/** Feeds a piece of the body; returns the events it completed (none while a frame is open). */
	push(chunk: string): SseEvent[] {
		let text = chunk;
		if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
		this.pendingCr = false;
		this.buffer += text;
		const events: SseEvent[] = [];
		for (;;) {
			const end = this.buffer.search(/[\r\n]/);
			if (end < 0) break;
			const line = this.buffer.slice(0, end);
			let next = end + 1;
			if (this.buffer[end] === '\r') {
				if (next === this.buffer.length) this.pendingCr = true;
				else if (this.buffer[next] === '\n') next++;
			}
			this.buffer = this.buffer.slice(next);
			const event = this.line(line);
			if (event) events.push(event);
		}
		if (this.buffer.length > MAX_SSE_LINE) throw new Error(`an event-stream line is longer than ${MAX_SSE_LINE} characters`);
		return events;
	}

	private line(line: string): SseEvent | undefined {
		if (line === '') return this.dispatch();
		if (line.startsWith(':')) return undefined;
		const colon = line.indexOf(':');
		const field = colon < 0 ? line : line.slice(0, colon);
		let value = colon < 0 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'event') this.eventName = value;
		else if (field === 'data') {
			this.dataLines.push(value);
			this.hasData = true;
		} else if (field === 'id' && !value.includes('\0')) this.lastId = value;
		else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
		return undefined;
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
