import { MAX_SSE_LINE, SseParser, statusOfFrame } from '../../../nodes/shared/sse';

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

	it('statusOfFrame: the status of a status frame only; heartbeats, bad JSON and empty statuses say nothing', () => {
		expect(statusOfFrame({ event: 'status', data: '{"status":"completed"}' })).toBe('completed');
		expect(statusOfFrame({ event: 'heartbeat', data: '{"status":"completed"}' })).toBeUndefined();
		expect(statusOfFrame({ event: 'status', data: 'not json' })).toBeUndefined();
		expect(statusOfFrame({ event: 'status', data: '{"status":""}' })).toBeUndefined();
		expect(statusOfFrame({ event: 'status', data: 'null' })).toBeUndefined();
	});
});
