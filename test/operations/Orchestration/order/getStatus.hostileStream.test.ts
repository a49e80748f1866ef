/**
 * Every wait ends by its own timeout, whatever the event stream sends: Order > Get Status (version 3,
 * Follow By: Event Stream) against a local server that answers like a broken or hostile service.
 * Each attack once kept the wait alive until Stop (every chunk restarted the frame timer, the opening
 * had no bound) or grew a buffer without limit; each test fails on that code.
 */
import type { IDataObject } from 'n8n-workflow';
import { OrchestrationServerApi } from '../../../../credentials/OrchestrationServerApi.credentials';
import { MAX_SSE_FRAME_DATA, MAX_SSE_LINE } from '../../../../nodes/shared/sse';
import { streamTiming } from '../../../../nodes/n8n/wait';
import { Orchestration } from '../../../../nodes/Orchestration/Orchestration.node';
import { clearStreamOpens } from '../../../../nodes/Orchestration/helpers/orderWait';
import { createHarness, executeNodeWithHints } from '../../../harness/n8n';
import { HostileService, SSE_HEADERS, type StreamConnection } from '../../../harness/hostileService';

const KEY = 'fn_hostile_stream_test_key';
/** The wait's Timeout (Seconds) in these tests. */
const TIMEOUT_S = 2;
/** Far past the timeout: a wait still running then is stuck (the old code's fate); it is stopped and the test fails. */
const STUCK_MS = 20_000;

let service: HostileService;
let baseUrl: string;
beforeEach(async () => {
	clearStreamOpens();
	service = new HostileService();
	baseUrl = await service.listen();
});
afterEach(async () => {
	streamTiming.openMs = 10_000;
	await service.close();
});

const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

interface WaitRun {
	out?: IDataObject;
	error?: Error;
	elapsedMs: number;
	/** Still running at STUCK_MS (then stopped). */
	stuck: boolean;
}

/** Get Status by order ID with Wait Until Final on the stream; stopped (and reported stuck) if it outlives STUCK_MS. */
async function waitOnStream(timeoutSeconds = TIMEOUT_S): Promise<WaitRun> {
	const h = createHarness({
		nodeType: new Orchestration(),
		credentialTypes: [new OrchestrationServerApi()],
		credentials: { orchestrationServerApi: { baseUrl, apiKey: KEY } },
		parameters: {
			authentication: 'serverKey',
			resource: 'order',
			operation: 'getStatus',
			id: 'ord_hostile',
			waitUntilFinal: true,
			followBy: 'stream',
			pollIntervalSeconds: 3,
			waitTimeoutSeconds: timeoutSeconds,
			onTimeout: 'returnLastState',
		},
		executionId: `hostile-${Date.now()}-${Math.random()}`,
	});
	const stop = new AbortController();
	const started = Date.now();
	let stuck = false;
	const guard = setTimeout(() => {
		stuck = true;
		stop.abort();
	}, STUCK_MS);
	const { output, error } = await executeNodeWithHints(h, [{ json: {} }], stop.signal);
	clearTimeout(guard);
	return { out: output?.[0][0].json, error, elapsedMs: Date.now() - started, stuck };
}

/**
 * The wait ended by its own timeout, on time, and the node hung up on the stream. On the stream, the
 * timeout is its deadline; once polling, it comes as soon as a full poll interval no longer fits.
 */
async function expectEndedByTimeout(run: WaitRun, onDeadline = true): Promise<StreamConnection> {
	expect(run.stuck).toBe(false);
	expect(run.error).toBeUndefined();
	expect(run.out).toMatchObject({ id: 'ord_hostile', status: 'processing', waitEndedBy: 'timeout', waitTimedOut: true });
	if (onDeadline) expect(run.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 50);
	// a busy machine may be late by seconds, never by the STUCK_MS the old code took
	expect(run.elapsedMs).toBeLessThan(TIMEOUT_S * 1000 + 8000);
	expect(service.streams).toHaveLength(1);
	const [conn] = service.streams;
	for (let i = 0; i < 100 && !conn.closed; i++) await sleep(20);
	expect(conn.closed).toBe(true);
	return conn;
}

/** An event stream that writes `text` every `everyMs`, from its first byte on. */
function streamEvery(everyMs: number, text: string | (() => string), head = ''): void {
	service.onStream = (_req, res, conn) => {
		res.writeHead(200, SSE_HEADERS);
		conn.write(`event: status\ndata: {"status":"processing"}\n\n${head}`);
		conn.timers.push(setInterval(() => conn.write(typeof text === 'string' ? text : text()), everyMs));
	};
}

describe('a wait on the event stream ends by its own timeout, whatever the stream sends', () => {
	it('comment lines every 0.5 s (they complete no frame) do not extend the wait', async () => {
		streamEvery(500, ': keep-alive\n');
		const conn = await expectEndedByTimeout(await waitOnStream());
		// precondition: comments kept coming while the node waited
		expect(conn.sent).toBeGreaterThan(': keep-alive\n'.length * 3);
		expect(service.statusReads.length).toBeGreaterThanOrEqual(1);
	});

	it('heartbeats without data (frames that are never dispatched) every 0.5 s do not extend it', async () => {
		streamEvery(500, 'event: heartbeat\n\n');
		const run = await waitOnStream();
		const conn = await expectEndedByTimeout(run);
		expect(conn.sent).toBeGreaterThan('event: heartbeat\n\n'.length * 3);
		expect(run.out).toMatchObject({ waitedVia: 'stream' });
	});

	it('a server that never sends headers: the opening ends at the timeout (and, with time left, after its own bound, then polls)', async () => {
		service.onStream = () => undefined; // accepts the request, answers nothing
		const run = await waitOnStream();
		await expectEndedByTimeout(run);
		expect(run.out).toMatchObject({ waitedVia: 'polling', waitFallback: 'the event stream was refused (no answer headers in time)' });

		// a long wait gives the opening its own bound (10 s in use), then polls and finds the change
		streamTiming.openMs = 500;
		service.streams.length = 0;
		setTimeout(() => (service.status = 'completed'), 1000);
		const polled = await waitOnStream(30);
		expect(polled.stuck).toBe(false);
		expect(polled.out).toMatchObject({ status: 'completed', waitEndedBy: 'final', waitedVia: 'polling', waitFallback: 'the event stream was refused (no answer headers in time)' });
		expect(polled.elapsedMs).toBeLessThan(15_000);
	});

	it('a refusal whose body trickles forever: the opening still ends at the timeout', async () => {
		service.onStream = (_req, res, conn) => {
			res.writeHead(503, { 'content-type': 'application/json' });
			conn.write('{"error":');
			conn.timers.push(setInterval(() => conn.write(' '), 100));
		};
		const run = await waitOnStream();
		await expectEndedByTimeout(run);
		expect(run.out?.waitFallback).toMatch(/^the event stream was refused \(HTTP 503/);
	});

	it('one endless data line: dropped at the 64 KiB line cap, then polled until the timeout', async () => {
		streamEvery(10, 'x'.repeat(4096), 'data: ');
		const run = await waitOnStream();
		const conn = await expectEndedByTimeout(run, false);
		expect(run.out).toMatchObject({ waitedVia: 'polling', waitFallback: `the event stream broke (an event-stream line is longer than ${MAX_SSE_LINE} characters)` });
		expect(MAX_SSE_LINE).toBe(65_536);
		// the node hung up soon after the cap, not at the end of the wait
		expect(conn.closedAt! - (Date.now() - run.elapsedMs)).toBeLessThan(TIMEOUT_S * 1000);
	});

	it('endless data lines without the blank line that ends a frame: dropped at the 64 KiB frame cap', async () => {
		streamEvery(10, `data: ${'y'.repeat(1024)}\n`);
		const run = await waitOnStream();
		await expectEndedByTimeout(run, false);
		expect(run.out).toMatchObject({ waitedVia: 'polling', waitFallback: `the event stream broke (an event-stream frame holds more than ${MAX_SSE_FRAME_DATA} characters of data)` });
	});

	it('many tiny chunks: a line trickled a byte at a time never extends the wait; a status sent byte by byte still ends it on the stream', async () => {
		streamEvery(5, 'z', ': ');
		const trickled = await waitOnStream();
		const conn = await expectEndedByTimeout(trickled);
		expect(conn.sent).toBeGreaterThan(100);
		expect(trickled.out).toMatchObject({ waitedVia: 'stream' });

		service.streams.length = 0;
		const frame = 'event: status\ndata: {"status":"completed"}\n\n';
		service.onStream = (_req, res, c) => {
			res.writeHead(200, SSE_HEADERS);
			let i = 0;
			c.timers.push(
				setInterval(() => {
					if (i === 0) service.status = 'completed';
					if (i < frame.length) c.write(frame[i++]);
				}, 5),
			);
		};
		const byByte = await waitOnStream(30);
		expect(byByte.out).toMatchObject({ status: 'completed', waitEndedBy: 'final', waitedVia: 'stream' });
	});
});
