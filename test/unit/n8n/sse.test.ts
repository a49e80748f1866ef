import { MAX_SSE_FRAME_DATA, MAX_SSE_LINE, SseParser, statusOfFrame } from '../../../nodes/shared/sse';

describe('SseParser: text/event-stream frames, chunk by chunk', () => {
	it('parses status and heartbeat frames as the service sends them', () => {
		const p = new SseParser();
		expect(p.push('event: status\ndata: {"status":"processing"}\n\nevent: heartbeat\ndata: {}\n\n')).toEqual([
			{ event: 'status', data: '{"status":"processing"}' },
			{ event: 'heartbeat', data: '{}' },
		]);
	});

	it('keeps a frame split anywhere across chunks, CR LF split between chunks included', () => {
		const text = 'event: status\r\ndata: {"status":"bridging"}\r\n\r\n';
		for (let cut = 1; cut < text.length; cut++) {
			const p = new SseParser();
			const events = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
			expect(events).toEqual([{ event: 'status', data: '{"status":"bridging"}' }]);
		}
	});

	it('lone CR ends lines; comments are skipped; repeated data lines join with LF; id and retry are kept', () => {
		const p = new SseParser();
		expect(p.push(': keep-alive\rid: 7\rretry: 1500\rdata: a\rdata:b\r\r')).toEqual([{ event: 'message', data: 'a\nb', id: '7', retry: 1500 }]);
	});

	it('a frame without data is not dispatched, and its event name does not leak into the next frame', () => {
		const p = new SseParser();
		expect(p.push('event: status\n\ndata: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
	});

	it('nothing is dispatched before the blank line that ends a frame', () => {
		const p = new SseParser();
		expect(p.push('event: status\ndata: {"status":"completed"}\n')).toEqual([]);
		expect(p.push('\n')).toHaveLength(1);
	});

	it('refuses an endless line (a body that is not an event stream)', () => {
		expect(() => new SseParser().push('x'.repeat(MAX_SSE_LINE + 1))).toThrow(/longer than/);
	});

	it('caps a line at 64 KiB however it arrives: in small chunks it is refused at the first character past the cap', () => {
		expect(MAX_SSE_LINE).toBe(64 * 1024);
		const p = new SseParser();
		const piece = 'data: '.padEnd(1024, 'x');
		for (let fed = 0; fed + piece.length <= MAX_SSE_LINE; fed += piece.length) expect(p.push(piece)).toEqual([]);
		expect(() => p.push('y')).toThrow(`an event-stream line is longer than ${MAX_SSE_LINE} characters`);
		// a line just under the cap, then its end, is a frame
		const q = new SseParser();
		const under = `data: ${'z'.repeat(MAX_SSE_LINE - 6)}`;
		for (let i = 0; i < under.length; i += 100) q.push(under.slice(i, i + 100));
		expect(q.push('\n\n')).toEqual([{ event: 'message', data: 'z'.repeat(MAX_SSE_LINE - 6) }]);
	});

	it('caps the data of one frame: data lines without the blank line that ends the frame are refused past 64 KiB', () => {
		expect(MAX_SSE_FRAME_DATA).toBe(64 * 1024);
		const p = new SseParser();
		const line = `data: ${'d'.repeat(1023)}\n`; // 1,023 characters of data, 1,024 with the LF that joins them
		let pushed = 0;
		const feed = () => {
			p.push(line);
			pushed++;
		};
		expect(() => {
			for (let i = 0; i < 1000; i++) feed();
		}).toThrow(`an event-stream frame holds more than ${MAX_SSE_FRAME_DATA} characters of data`);
		expect(pushed).toBe(64);
		// the same data in frames of their own is fine, however long the stream
		const q = new SseParser();
		for (let i = 0; i < 1000; i++) expect(q.push(`${line}\n`)).toHaveLength(1);
	});

	it('comments and data-less frames keep nothing: an endless stream of them parses without growing or failing', () => {
		const p = new SseParser();
		for (let i = 0; i < 2000; i++) expect(p.push(': keep-alive\nevent: heartbeat\n\n')).toEqual([]);
		expect(p.push('event: status\ndata: {"status":"completed"}\n\n')).toEqual([{ event: 'status', data: '{"status":"completed"}' }]);
	});

	it('a chunk of many frames gives them all, CR LF, LF and CR line ends mixed', () => {
		const p = new SseParser();
		const frames = Array.from({ length: 5000 }, (_, i) => `data: ${i}${['\n\n', '\r\n\r\n', '\r\r'][i % 3]}`).join('');
		expect(p.push(frames).map((e) => e.data)).toEqual(Array.from({ length: 5000 }, (_, i) => String(i)));
	});

	it('statusOfFrame: the status of a status frame only; heartbeats, bad JSON and empty statuses say nothing', () => {
		expect(statusOfFrame({ event: 'status', data: '{"status":"completed"}' })).toBe('completed');
		expect(statusOfFrame({ event: 'heartbeat', data: '{"status":"completed"}' })).toBeUndefined();
		expect(statusOfFrame({ event: 'status', data: 'not json' })).toBeUndefined();
		expect(statusOfFrame({ event: 'status', data: '{"status":""}' })).toBeUndefined();
		expect(statusOfFrame({ event: 'status', data: 'null' })).toBeUndefined();
	});
});
