/**
 * The decisions of a wait until final, without n8n or I/O (the loop that acts on them is
 * nodes/n8n/wait.ts): how long to sleep before the next read, how long to wait for the next frame of
 * an event stream and what silence means, when an announced status is worth a read, and which
 * order status ends a wait. Unit-tested alone (test/unit/n8n/waitRules.test.ts).
 */

/** public-notes.md: poll one order's status no faster than every 3 seconds; both nodes' newest versions use it. */
export const MIN_WAIT_INTERVAL_SECONDS = 3;

/** public-notes.md: a heartbeat every 15 s; three missed in a row (45 s of silence) count as a dropped stream. */
export const HEARTBEAT_GAP_MS = 45_000;

/** Longest wait for an event stream's answer headers (a refusal's body included) before the wait polls instead. */
export const STREAM_OPEN_MS = 10_000;

/** When an opening stream must have answered: its own bound, never past the wait's deadline. */
export function streamOpenDeadline(
	now: number,
	deadline: number,
	openMs: number = STREAM_OPEN_MS,
): number {
	return Math.min(deadline, now + openMs);
}

/** The interval between two reads, in ms: the seconds asked for, never below `minSeconds`. */
export function intervalMsOf(
	seconds: unknown,
	minSeconds: number,
	fallbackSeconds: number,
): number {
	const n = typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : fallbackSeconds;
	return Math.max(minSeconds, n) * 1000;
}

export interface PollClock {
	now: number;
	/** Epoch ms after which no read starts. */
	deadline: number;
	intervalMs: number;
	/** Shorten the last sleep so the last read lands on the deadline (else stop when a full interval no longer fits). */
	lastReadOnDeadline: boolean;
}

/** Ms to sleep before the next read, or undefined when the wait times out instead. */
export function nextPollDelay({
	now,
	deadline,
	intervalMs,
	lastReadOnDeadline,
}: PollClock): number | undefined {
	const remaining = deadline - now;
	const fits = lastReadOnDeadline ? remaining > 0 : remaining >= intervalMs;
	return fits ? Math.min(intervalMs, remaining) : undefined;
}

export interface StreamClock {
	now: number;
	deadline: number;
	/** When the last frame (status or heartbeat) arrived, or the stream opened. */
	lastFrameAt: number;
	gapMs: number;
}

/** How long to wait for the next frame, and what it means if none comes: the wait's timeout, or a dropped stream. */
export interface FrameWait {
	ms: number;
	onSilence: 'timeout' | 'dropped';
}

export function nextFrameWait({ now, deadline, lastFrameAt, gapMs }: StreamClock): FrameWait {
	const toDeadline = deadline - now;
	const toGap = lastFrameAt + gapMs - now;
	return toDeadline <= toGap
		? { ms: Math.max(0, toDeadline), onSilence: 'timeout' }
		: { ms: Math.max(0, toGap), onSilence: 'dropped' };
}

/** A streamed status is read in full (`/status`) only when it differs from the last state read. */
export function announcesChange(
	announced: string | undefined,
	lastKnown: string | undefined,
): boolean {
	return announced !== undefined && announced !== lastKnown;
}

/**
 * What ends a stretch of an order wait: a final status; the order's replacement, which the wait
 * follows (`superseded`); or (newest version) an order that needs the partner's answer.
 */
export type OrderWaitEnd = 'final' | 'actionRequired' | 'superseded';

/** public-notes: `awaiting_approval` waits for the partner (a ZeroConf offer, or an operator hold). */
export const ACTION_REQUIRED_STATUSES: ReadonlySet<string> = new Set(['awaiting_approval']);

/** What one read of an order tells the wait (the order's own fields are read in orchestration/orderView.ts). */
export interface OrderReading {
	status: string | undefined;
	isFinal: boolean;
	/** The order that replaced this one and that the wait may still follow. */
	successor?: string;
	/** The order waits for the partner's approval of a new price (price lock `approval_required`). */
	repriceApproval?: boolean;
}

/**
 * Final ends the wait in every version; a successor is followed in every version (`unfulfilled`
 * is not final, and the replaced order never moves again); an answer the partner must give ends it
 * from the newest version on.
 */
export function orderWaitEnd(
	reading: OrderReading,
	endOnActionRequired: boolean,
): OrderWaitEnd | undefined {
	if (reading.isFinal) return 'final';
	if (reading.successor !== undefined) return 'superseded';
	if (!endOnActionRequired) return undefined;
	const waitsForPartner =
		reading.status !== undefined && ACTION_REQUIRED_STATUSES.has(reading.status);
	return waitsForPartner || reading.repriceApproval === true ? 'actionRequired' : undefined;
}

/** The longest wait a node run as an AI-agent tool may hold its item (an agent's call must end). */
export const TOOL_WAIT_MAX_MS = 3_600_000;
