/**
 * The month the benchmark runs: the rows of `payout_schedule` (daily, weekly and monthly payouts on
 * three routes, a daily ZeroConf payout, gateway payouts), the payout each row makes on each day
 * (the payout reference example 1 computes: `payoutKey` plus the day, ISO week or month), what the
 * service does to some of those payouts (failed, refunded, unconfirmed, held, paused, a recovery
 * decision) and the request faults armed each day. Pure: no I/O.
 */

export type Scenario =
	| 'normal'
	/** The order fails after funding (a person decides whether to pay again). */
	| 'failed'
	| 'refunded'
	/** The deposit does not confirm (`unfulfilled`); a day later a late deposit to its address resumes it. */
	| 'unfulfilled'
	/** The sandbox's scripted late deposit: `unfulfilled` for one step, then resumed by the service. */
	| 'lateDeposit'
	/** An operator hold (`awaiting_approval` without an offer), released by the service a while later. */
	| 'hold'
	/** `order.recovery_required` to the recovery subscription while the order moves on. */
	| 'recovery'
	/** Paused by the service (no webhook) until the next day's reconciliation has seen it. */
	| 'paused'
	/** A ZeroConf offer a person accepts (example 1 asks), or declines. */
	| 'zeroconfAccept'
	| 'zeroconfDecline'
	/** Paid through the Execution Gateway. */
	| 'gateway';

/** The scenarios the wallet or the service's operator (the benchmark) brings about, payout by payout. */
export const SERVICE_SCENARIOS = ['failed', 'refunded', 'unfulfilled', 'lateDeposit', 'hold', 'recovery', 'paused'] as const;
export type ServiceScenario = (typeof SERVICE_SCENARIOS)[number];

export interface MonthConfig {
	label: string;
	/** First simulated day (a Monday), YYYY-MM-DD. */
	firstDay: string;
	days: number;
	/** Schedule rows by period; of them paid through the gateway, and the daily ZeroConf rows. */
	monthlyRows: number;
	weeklyRows: number;
	dailyRows: number;
	weeklyGatewayRows: number;
	dailyGatewayRows: number;
	dailyZeroconfRows: number;
	/** Payouts of each service scenario over the month. */
	scenarios: Record<ServiceScenario, number>;
	/** Every n-th ZeroConf payout is declined by the person (the others accepted). */
	declineEvery: number;
	/** Standing-address deposits per day (orders without a quote, reconciled by deposit). */
	standingDepositsPerDay: number;
	/** Real seconds one simulated day lasts. */
	daySeconds: number;
	/** The day (1-based) the ledger writer's workflow is re-published, and the day n8n restarts. */
	republishDay: number;
	restartDay: number;
}

export const FULL: MonthConfig = {
	label: 'full',
	firstDay: '2027-03-01',
	days: 30,
	// payday: 198 payouts on the 1st
	monthlyRows: 150,
	weeklyRows: 20,
	dailyRows: 28,
	weeklyGatewayRows: 2,
	dailyGatewayRows: 1,
	dailyZeroconfRows: 1,
	scenarios: { failed: 15, refunded: 15, unfulfilled: 15, lateDeposit: 15, hold: 10, recovery: 15, paused: 8 },
	declineEvery: 3,
	standingDepositsPerDay: 2,
	daySeconds: 110,
	republishDay: 10,
	restartDay: 20,
};

/** A local check: 100 payouts in 5 days (68 on payday), every fault and scenario at least twice. */
export const SHORT: MonthConfig = {
	label: 'short',
	firstDay: '2027-03-01',
	days: 5,
	monthlyRows: 56,
	weeklyRows: 4,
	dailyRows: 8,
	weeklyGatewayRows: 0,
	dailyGatewayRows: 1,
	dailyZeroconfRows: 1,
	scenarios: { failed: 2, refunded: 2, unfulfilled: 2, lateDeposit: 2, hold: 2, recovery: 2, paused: 2 },
	declineEvery: 2,
	standingDepositsPerDay: 1,
	daySeconds: 75,
	republishDay: 2,
	restartDay: 4,
};

export interface ScheduleRow {
	payoutKey: string;
	enabled: boolean;
	every: 'day' | 'week' | 'month';
	method: 'quote' | 'gateway';
	amount: string;
	sourceChain: string;
	sourceAsset: string;
	destinationChain: string;
	destinationAsset: string;
	recipient: string;
	refundAddress: string;
	zeroconf: boolean;
	note: string;
}

export interface Payout {
	payoutId: string;
	/** 1-based day of the month it is planned on. */
	day: number;
	row: ScheduleRow;
	scenario: Scenario;
}

export interface Month {
	config: MonthConfig;
	rows: ScheduleRow[];
	payouts: Payout[];
	/** `planFor` of each day (noon UTC: the same date in every time zone n8n may run in). */
	planFor: string[];
}

const BTC_REFUND = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const EVM_REFUND = '0x5555555555555555555555555555555555555555';

/** The three quote routes (exact out: the recipient gets exactly `amount`): BTC, USDC and ETH sources. */
const ROUTES = [
	{ sourceChain: 'bitcoin', sourceAsset: 'BTC', destinationChain: 'base', destinationAsset: 'USDC', refundAddress: BTC_REFUND },
	{ sourceChain: 'base', sourceAsset: 'USDC', destinationChain: 'arbitrum', destinationAsset: 'USDC', refundAddress: EVM_REFUND },
	{ sourceChain: 'ethereum', sourceAsset: 'ETH', destinationChain: 'base', destinationAsset: 'USDC', refundAddress: EVM_REFUND },
];

/** A distinct EVM recipient per row. */
function recipientOf(n: number): string {
	return `0x${(0xb0000 + n).toString(16).padStart(40, '0')}`;
}

/** Whole cents between 5 and 500 USDC, different per row. */
function usdAmount(n: number): string {
	const cents = 500 + ((n * 7919) % 49_500);
	return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function quoteRow(payoutKey: string, every: ScheduleRow['every'], n: number, zeroconf = false): ScheduleRow {
	const route = zeroconf ? ROUTES[0] : ROUTES[n % ROUTES.length];
	return { payoutKey, enabled: true, every, method: 'quote', amount: usdAmount(n), ...route, recipient: recipientOf(n), zeroconf, note: 'benchmark' };
}

function gatewayRow(payoutKey: string, every: ScheduleRow['every'], n: number): ScheduleRow {
	return {
		payoutKey, enabled: true, every, method: 'gateway', amount: `0.000${25 + (n % 50)}`, sourceChain: 'spark', sourceAsset: 'BTC',
		destinationChain: '', destinationAsset: 'BTC', recipient: recipientOf(n), refundAddress: '', zeroconf: false, note: 'benchmark',
	};
}

export function scheduleRows(c: MonthConfig): ScheduleRow[] {
	const rows: ScheduleRow[] = [];
	let n = 0;
	for (let i = 0; i < c.monthlyRows; i++) rows.push(quoteRow(`m${i}`, 'month', n++));
	for (let i = 0; i < c.weeklyRows; i++) rows.push(i < c.weeklyGatewayRows ? gatewayRow(`w${i}`, 'week', n++) : quoteRow(`w${i}`, 'week', n++));
	for (let i = 0; i < c.dailyRows; i++) {
		if (i < c.dailyGatewayRows) rows.push(gatewayRow(`d${i}`, 'day', n++));
		else if (i < c.dailyGatewayRows + c.dailyZeroconfRows) rows.push(quoteRow(`d${i}`, 'day', n++, true));
		else rows.push(quoteRow(`d${i}`, 'day', n++));
	}
	return rows;
}

/** ISO week of a UTC date as example 1 writes it (luxon's `kkkk-'W'WW`). */
export function isoWeek(date: Date): string {
	const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
	const weekday = (d.getUTCDay() + 6) % 7;
	d.setUTCDate(d.getUTCDate() - weekday + 3);
	const year = d.getUTCFullYear();
	const firstThursday = new Date(Date.UTC(year, 0, 4));
	firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
	const week = 1 + Math.round((d.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
	return `${year}-W${String(week).padStart(2, '0')}`;
}

function periodOf(every: ScheduleRow['every'], date: Date): string {
	const iso = date.toISOString();
	if (every === 'day') return iso.slice(0, 10);
	if (every === 'month') return iso.slice(0, 7);
	return isoWeek(date);
}

/** Spreads `count` picks over `n` slots, the `k`-th kind shifted so kinds do not start on the same slot. */
function spread(n: number, count: number, k: number, kinds: number): number[] {
	if (count <= 0 || n <= 0) return [];
	const step = n / count;
	return Array.from({ length: count }, (_, i) => Math.min(n - 1, Math.floor(i * step + (k * step) / kinds)));
}

export function planMonth(c: MonthConfig): Month {
	const rows = scheduleRows(c);
	const first = new Date(`${c.firstDay}T12:00:00.000Z`);
	const planFor: string[] = [];
	const payouts: Payout[] = [];
	const paid = new Set<string>();
	for (let day = 1; day <= c.days; day++) {
		const date = new Date(first.getTime() + (day - 1) * 86_400_000);
		planFor.push(date.toISOString());
		for (const row of rows) {
			const payoutId = `${row.payoutKey}-${periodOf(row.every, date)}`;
			if (paid.has(payoutId)) continue;
			paid.add(payoutId);
			const scenario: Scenario = row.method === 'gateway' ? 'gateway' : row.zeroconf ? 'zeroconfAccept' : 'normal';
			payouts.push({ payoutId, day, row, scenario });
		}
	}
	payouts
		.filter((p) => p.row.zeroconf)
		.forEach((p, i) => {
			if ((i + 1) % c.declineEvery === 0) p.scenario = 'zeroconfDecline';
		});
	SERVICE_SCENARIOS.forEach((scenario, k) => {
		// a paused order must see one more day's reconciliation: not on the last day
		const eligible = payouts.filter((p) => p.scenario === 'normal' && (scenario !== 'paused' || p.day < c.days));
		for (const i of spread(eligible.length, c.scenarios[scenario], k, SERVICE_SCENARIOS.length)) {
			let j = i;
			while (j < eligible.length && eligible[j].scenario !== 'normal') j++;
			if (j < eligible.length) eligible[j].scenario = scenario;
		}
	});
	return { config: c, rows, payouts, planFor };
}

/** One fault rule of the sandbox (POST /sandbox/faults), with the kind it is counted under. */
export interface FaultArm {
	kind: FaultKind;
	rule: Record<string, unknown>;
}

export type FaultKind = 'dropped answer (acted, answer lost)' | 'dropped connection (before acting)' | '5xx' | '429 (live-shaped)';

const ORCH = {
	quote: { method: 'POST', path: '/v1/orchestration/quote' },
	status: { method: 'GET', path: '/v1/orchestration/status' },
	byQuote: { method: 'GET', path: '/v1/orchestration/order' },
	accept: { method: 'POST', path: '/v1/orchestration/zeroconf/accept' },
};
const GATEWAY = {
	intent: { service: 'gateway', method: 'GET', path: '/api/v1/intents/:submissionId' },
	info: { service: 'gateway', method: 'GET', path: '/api/v1/network/info' },
};

/**
 * The request faults armed at the start of a day, each for one matching request: lost answers
 * where the service acted first (quote, order by quote, ZeroConf accept), connections dropped
 * before it acted, 5xx, and 429s as the live limiters send them: on a quote the key+IP limiter's
 * (Retry-After, X-RateLimit-Limit 60 and Remaining 0), on a status read the key limiter's. The
 * sandbox's own limiter (the live numbers) answers 429 too when n8n quotes faster than 60 a minute.
 */
export function faultsOfDay(month: Month, day: number): FaultArm[] {
	const arms: FaultArm[] = [
		{ kind: 'dropped answer (acted, answer lost)', rule: { ...ORCH.quote, mode: 'dropAnswer' } },
		{ kind: 'dropped answer (acted, answer lost)', rule: { ...ORCH.byQuote, mode: 'dropAnswer' } },
		{ kind: 'dropped connection (before acting)', rule: { ...ORCH.quote, mode: 'drop' } },
		{ kind: 'dropped connection (before acting)', rule: { ...ORCH.status, mode: 'drop' } },
		{ kind: '5xx', rule: { ...ORCH.quote, mode: 'status', status: 503 } },
		{ kind: '5xx', rule: { ...ORCH.status, mode: 'status', status: 502, code: 'bad_gateway' } },
		{ kind: '5xx', rule: { ...ORCH.status, mode: 'status', status: 503 } },
		{ kind: '5xx', rule: { ...ORCH.byQuote, mode: 'status', status: 500, code: 'internal_error' } },
		{
			kind: '429 (live-shaped)',
			rule: { ...ORCH.quote, mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 2, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' } },
		},
		{
			kind: '429 (live-shaped)',
			rule: { ...ORCH.status, mode: 'status', status: 429, code: 'rate_limited', retryAfterSeconds: 1, headers: { 'x-ratelimit-limit': '1200', 'x-ratelimit-remaining': '0' } },
		},
	];
	const today = month.payouts.filter((p) => p.day === day);
	if (today.some((p) => p.scenario === 'zeroconfAccept')) arms.push({ kind: 'dropped answer (acted, answer lost)', rule: { ...ORCH.accept, mode: 'dropAnswer' } });
	if (today.some((p) => p.scenario === 'gateway')) {
		arms.push({ kind: '5xx', rule: { ...GATEWAY.intent, mode: 'status', status: 503 } });
		arms.push({ kind: '5xx', rule: { ...GATEWAY.info, mode: 'status', status: 503 } });
	}
	return arms;
}
