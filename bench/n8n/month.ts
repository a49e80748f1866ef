/**
 * `npm run bench:month` ("a month of payouts in an hour"): the examples a team leaves running, in a
 * real n8n 2.41.1 against the sandbox on a scaled clock, for a simulated month:
 *
 * - example 0 creates the payout tables; `payout_schedule` gets daily, weekly and monthly payouts
 *   (three quote routes, a daily ZeroConf payout, gateway payouts): 1,090 payouts in 30 days, 198
 *   of them on payday (the 1st);
 * - each simulated day, example 7 reconciles (its "Run now", as at 06:00) and example 1 plans the
 *   day (`{planFor}` through its Execute Workflow Trigger, as a workflow catching up a day does),
 *   one execution per payout, followed through n8n's Wait node; examples 2 and 3 are published
 *   and get every order event; the wallet and Slack are stand-ins (bench/n8n/month/standIns.ts);
 * - the sandbox's faults on: lost answers, dropped connections, 5xx, 429s (the sandbox's limiter
 *   with the live quote limits for the server key, and 429s shaped as the live limiters send them
 *   on quotes and status reads),
 *   orders that fail, refund, stay unfulfilled until a late deposit, resume by themselves, are held,
 *   need a recovery decision, or are paused without a webhook, ZeroConf offers a person accepts or
 *   declines; example 3's workflow is re-published once and n8n restarted once along the way;
 * - at the end, measured against the sandbox's own records (bench/n8n/month/checks.ts).
 *
 * Prints the figures and writes them as JSON (BENCH_OUT, default a temp file), and the figures the
 * README quotes to bench/results/month-<full|short>.json (commit it). Exits 1 where a user would
 * lose (month/checks.ts, problemsOf): a payout unpaid, paid twice or handed off to the wallet twice,
 * a ledger row missing or wrong, an event never acknowledged or emitted while a workflow had no
 * endpoint, a person not reached, a month that did not settle; or when an armed fault rule never
 * hit or a scenario never happened. Wall time and executions are reported, never asserted. `--short` (or BENCH_MONTH=short): 100 payouts in 5 days, a local check.
 * BENCH_TIME_SCALE (default 5: a quote lives 24 s, an order step takes 6 s, a webhook retry comes
 * after 2 s, 6 s, 24 s ...; the wallet must pay within the quote's life on a loaded machine too),
 * BENCH_DAY_SECONDS (real seconds a day lasts; 110 full, 75 short).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../sandbox';
import { DataTables, type Row } from '../../scripts/lib/dataTables';
import { OWNER, PAYOUT_TABLES, TABLES_WORKFLOW, forSandbox, loadExamples, pickSandboxKeys, sandboxCredentials, withSettings } from '../../scripts/lib/examples';
import { endedExecution, errorOf, executionOf, executionsOf, type Execution } from '../../scripts/lib/executions';
import { API_KEY_SCOPES, CUSTOM_PREFIX, N8nInstance, REPO_ROOT, ensureN8nInstalled, fetchN8n, freePort, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { until } from '../../test/e2e/sandbox-client';
import { measure, problemsOf, readSandbox, type Figures } from './month/checks';
import { watchEmissions } from './month/emissions';
import { FaultBook, type FaultReport } from './month/faults';
import { Operator } from './month/operator';
import { FULL, SHORT, faultsOfDay, planMonth, type MonthConfig } from './month/plan';
import { StandIns, withSlackToStandIn } from './month/standIns';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundle } = require('../../scripts/bundle.js');

const PAYOUTS = 'exRecurringPayout';
const ROUTER = 'exOrderEventsSlack';
const LEDGER_FLOW = 'exOrderEventsLedger';
const RECONCILIATION = 'exDailyReconciliation';
const WORKFLOWS = [TABLES_WORKFLOW, PAYOUTS, ROUTER, LEDGER_FLOW, RECONCILIATION];
const STANDING_REF = 'bench-standing';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const short = process.argv.includes('--short') || process.env.BENCH_MONTH === 'short';
const CONFIG: MonthConfig = { ...(short ? SHORT : FULL), ...(process.env.BENCH_DAY_SECONDS ? { daySeconds: Number(process.env.BENCH_DAY_SECONDS) } : {}) };
const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 5);
const OUT = process.env.BENCH_OUT ?? path.join(os.tmpdir(), `month-${CONFIG.label}-${Date.now()}.json`);
/** The figures the README quotes, committed: bench/results/month-full.json (or -short.json). */
const RESULTS = process.env.BENCH_RESULTS ?? path.join(REPO_ROOT, 'bench', 'results', `month-${CONFIG.label}.json`);

const log = (...args: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);

/** Machine load while the month runs: load average, CPU busy (every process), n8n's and this process's CPU. */
class LoadMeter {
	private samples: number[] = [];
	private busy: number[] = [];
	private lastCpu?: { total: number; idle: number };
	private timer?: NodeJS.Timeout;
	n8nCpuSeconds = 0;
	private n8nLast = 0;
	private readonly started = process.cpuUsage();

	constructor(private readonly pid: () => number | undefined) {}

	start(): void {
		this.timer = setInterval(() => this.sample(), 10_000);
	}

	/** n8n's own CPU so far (user + system), added up over its lifetimes. */
	sampleN8n(): void {
		const pid = this.pid();
		if (!pid) return;
		try {
			const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
			const ticks = Number(fields[11]) + Number(fields[12]);
			this.n8nCpuSeconds += Math.max(0, ticks / 100 - this.n8nLast);
			this.n8nLast = ticks / 100;
		} catch {
			// not running
		}
	}

	/** Before n8n stops: its CPU counted, the next process starts from 0. */
	n8nStopping(): void {
		this.sampleN8n();
		this.n8nLast = 0;
	}

	private sample(): void {
		this.samples.push(Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
		const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
		const total = cpu.reduce((a, b) => a + b, 0);
		const idle = cpu[3] + cpu[4];
		if (this.lastCpu) this.busy.push(1 - (idle - this.lastCpu.idle) / Math.max(1, total - this.lastCpu.total));
		this.lastCpu = { total, idle };
		this.sampleN8n();
	}

	stop(): Record<string, number> {
		clearInterval(this.timer);
		this.sampleN8n();
		const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
		const own = process.cpuUsage(this.started);
		return {
			cores: os.cpus().length,
			loadAverageMean: Number(mean(this.samples).toFixed(2)),
			loadAverageMax: Math.max(0, ...this.samples),
			machineCpuBusyPercent: Math.round(mean(this.busy) * 100),
			n8nCpuSeconds: Math.round(this.n8nCpuSeconds),
			benchCpuSeconds: Math.round((own.user + own.system) / 1e6),
		};
	}
}

interface Env {
	sandbox: Sandbox;
	n8n: N8nInstance;
	standIns: StandIns;
	cookie: string;
	apiKey: string;
	tables: DataTables;
	serverKey: string;
}

/** An API key that may also update workflows (the re-publish). */
async function apiKeyWithUpdate(n8n: N8nInstance, cookie: string): Promise<string> {
	const res = await fetchN8n(`${n8n.url}/rest/api-keys`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ label: `bench-month-${Date.now()}`, expiresAt: null, scopes: [...API_KEY_SCOPES, 'workflow:update'] }),
	});
	const key = ((await res.json()) as { data?: { rawApiKey?: string } }).data?.rawApiKey;
	if (!key) throw new Error(`api key creation failed: ${res.status}`);
	return key;
}

async function restReady(n8n: N8nInstance): Promise<void> {
	await until('n8n REST routes', async () => (await fetch(`${n8n.url}/rest/settings`)).status === 200 || undefined, 180_000, 500);
}

async function sandboxCall(env: Env, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
	const res = await fetch(`${env.sandbox.orchestrationUrl}${p}`, {
		method,
		headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
	return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** The sandbox on the scaled clock, with the live quote limits for the server key and offers that wait for the loop. */
async function sandboxForTheMonth(): Promise<Sandbox> {
	return await startSandbox({
		timeScale: TIME_SCALE,
		quiet: true,
		config: {
			switches: {
				// public-notes' quote limits (600 per key, 60 per key and IP a minute, the minute on the
				// scaled clock like every delay) for the server key too, as a partner override does
				rateLimits: { enabled: true, serverKeys: true },
				// an offer stays open for the loop's next read (it reads every 65 s)
				zeroconfOfferMs: 3_600_000,
				// 30 s a step (6 s at x5): an order moves for about half a minute, its events arrive while n8n works
				orderStepMs: 30_000,
				// every answered request kept: the quote 429s and replays are counted from the log
				recordedRequests: 2_000_000,
			},
		},
	});
}

/** Imports the examples (Slack to the stand-in, the wallet URL, example 1's waits parked in n8n's database), publishes 2 and 3, starts n8n. */
async function setUp(sandbox: Sandbox, standIns: StandIns, month: ReturnType<typeof planMonth>): Promise<Env> {
	const installDir = ensureN8nInstalled();
	const dist = path.join(REPO_ROOT, 'dist');
	await bundle({ outdir: dist });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-bench-month-'));
	const n8n = new N8nInstance({
		installDir,
		userFolder,
		port: await freePort(),
		extensions: dist,
		extraEnv: { N8N_LOG_LEVEL: 'info', EXECUTIONS_DATA_PRUNE: 'false', GENERIC_TIMEZONE: 'UTC' },
	});
	await n8n.importCredentials([
		...sandboxCredentials(sandbox),
		{ id: 'walletApiPlaceholder', name: 'Wallet API (custody)', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${standIns.token}` } },
	]);
	const workflows = loadExamples()
		.filter((e) => WORKFLOWS.includes(e.workflow.id))
		.map((e) => {
			let wf = withSlackToStandIn(e.workflow as never, `${standIns.url}/slack`) as typeof e.workflow;
			// waits of 65 s and more are parked in n8n's database: they survive the restart
			if (wf.id === PAYOUTS) {
				wf = withSettings(wf as never, { walletUrl: `${standIns.url}/wallet`, depositCheckSeconds: 65, orderCheckSeconds: 65, intentCheckSeconds: 65, quoteGraceSeconds: 60, maxOrderChecks: 120 });
			}
			if (wf.id === RECONCILIATION) wf = withSettings(wf as never, { standingReferences: `={{ ['${STANDING_REF}'] }}`, unpaidQuoteHours: 0 });
			return forSandbox(withNodePrefix(wf, CUSTOM_PREFIX), sandbox);
		});
	await n8n.importWorkflows(workflows);
	for (const id of [ROUTER, LEDGER_FLOW]) {
		const r = await n8n.cli(['publish:workflow', `--id=${id}`]);
		if (r.code !== 0) throw new Error(`publish ${id}: ${r.stderr || r.stdout}`);
	}
	await n8n.start();
	await restReady(n8n);
	const cookie = await n8n.setupOwner(OWNER);
	const apiKey = await apiKeyWithUpdate(n8n, cookie);
	const run = await endedExecution(n8n, apiKey, await n8n.runManually(cookie, TABLES_WORKFLOW, 'Run now'), 300_000);
	if (run.status !== 'success') throw new Error(`example 0 failed: ${errorOf(run) ?? run.status}`);
	const tables = new DataTables(n8n, apiKey);
	await tables.insert(PAYOUT_TABLES.schedule, month.rows as never);
	const env: Env = { sandbox, n8n, standIns, cookie, apiKey, tables, serverKey: pickSandboxKeys(sandbox).server.key };
	await until('both triggers registered (and the recovery subscription)', async () => {
		const hooks = (await sandboxCall(env, 'GET', '/sandbox/webhooks')).webhooks as Array<{ url: string; kind?: string }>;
		const mine = hooks.filter((h) => h.url.startsWith(n8n.url));
		return mine.filter((h) => h.kind !== 'recovery').length === 2 && mine.some((h) => h.kind === 'recovery') ? true : undefined;
	}, 180_000, 1000);
	return env;
}

/** A standing deposit address to base USDC (the reconciliation matches its deposits); answers its EVM address. */
async function standingAddress(env: Env): Promise<string> {
	const auth = { authorization: `Bearer ${env.serverKey}` };
	await sandboxCall(env, 'PUT', `/v1/standing-deposit-addresses/${STANDING_REF}`, { destination: { chain: 'base', asset: 'USDC', address: '0x7777777777777777777777777777777777777777' } }, { ...auth, 'x-idempotency-key': randomUUID() });
	const instruction = await sandboxCall(env, 'GET', `/v1/standing-deposit-addresses/${STANDING_REF}`, undefined, auth);
	return Object.values(instruction.addresses as Record<string, string>).find((a) => /^0x[0-9a-fA-F]{40}$/.test(a))!;
}

const ledgerUrl = (env: Env) => `${env.n8n.url}/webhook/example-order-events-ledger/webhook`;
const routerUrl = (env: Env) => `${env.n8n.url}/webhook/example-order-events-slack/webhook`;

interface Republish {
	day: number;
	endpointsBefore: string[];
	endpointsAfter: string[];
	/** The trigger kept its endpoint (the same registration before and after). */
	keptEndpoint: boolean;
	ms: number;
}

/**
 * Re-publishes example 3 with its trigger changed (an option), as a person editing the workflow and
 * publishing it does: n8n removes the trigger and adds it again (its publication service re-registers
 * only a trigger that changed). Done when the service saw the trigger register again, or the trigger
 * logged that it kept its endpoint.
 */
async function republishLedgerFlow(env: Env, day: number): Promise<Republish> {
	const t0 = Date.now();
	const endpoints = async () =>
		((await sandboxCall(env, 'GET', '/sandbox/webhooks')).webhooks as Array<{ webhookId: string; url: string; kind?: string; disabledAt?: string }>)
			.filter((w) => w.url === ledgerUrl(env) && w.kind !== 'recovery' && !w.disabledAt)
			.map((w) => w.webhookId);
	const before = await endpoints();
	const logSize = fs.statSync(env.n8n.logFile).size;
	const wf = await env.n8n.api<{ name: string; nodes: Array<{ name: string; parameters: Record<string, unknown> }>; connections: unknown; settings?: unknown }>(env.apiKey, 'GET', `/workflows/${LEDGER_FLOW}`);
	const nodes = wf.nodes.map((n) => {
		if (n.name !== 'Order events') return n;
		const options = (n.parameters.options ?? {}) as Record<string, unknown>;
		return { ...n, parameters: { ...n.parameters, options: { ...options, deduplicationHours: Number(options.deduplicationHours ?? 36) + 1 } } };
	});
	await env.n8n.api(env.apiKey, 'PUT', `/workflows/${LEDGER_FLOW}`, { name: wf.name, nodes, connections: wf.connections, settings: { executionOrder: 'v1' } });
	await env.n8n.api(env.apiKey, 'POST', `/workflows/${LEDGER_FLOW}/activate`);
	const keptLogged = () => {
		const fd = fs.openSync(env.n8n.logFile, 'r');
		try {
			const size = fs.fstatSync(fd).size;
			const buf = Buffer.alloc(Math.max(0, size - logSize));
			fs.readSync(fd, buf, 0, buf.length, logSize);
			return /kept its endpoint registered/.test(buf.toString('utf8'));
		} finally {
			fs.closeSync(fd);
		}
	};
	const after = await until(
		'the re-publish to register the trigger again',
		async () => {
			const now = await endpoints();
			return now.some((id) => !before.includes(id)) || (keptLogged() && now.length > 0) ? now : undefined;
		},
		180_000,
		500,
	);
	return { day, endpointsBefore: before, endpointsAfter: after, keptEndpoint: before.length > 0 && after.every((id) => before.includes(id)), ms: Date.now() - t0 };
}

interface Restart {
	day: number;
	downMs: number;
	waitingPayoutsAtStop: string[];
}

async function waitingPayouts(env: Env): Promise<string[]> {
	const page = await env.n8n.api<{ data: Execution[] }>(env.apiKey, 'GET', `/executions?workflowId=${PAYOUTS}&status=waiting&limit=250`);
	return page.data.map((e) => e.id);
}

/**
 * Restarts n8n as a service manager does (systemd: SIGTERM, SIGKILL only after 90 s; n8n lets its
 * running executions finish for up to 30 s), starts it again, logs in again.
 */
async function restartN8n(env: Env, load: LoadMeter, day: number): Promise<Restart> {
	const waitingPayoutsAtStop = await waitingPayouts(env);
	const t0 = Date.now();
	load.n8nStopping();
	await env.n8n.stop(90_000);
	await env.n8n.start();
	await restReady(env.n8n);
	env.cookie = await env.n8n.setupOwner(OWNER);
	return { day, downMs: Date.now() - t0, waitingPayoutsAtStop };
}

/** What the run reports besides the figures (the JSON written to BENCH_OUT). */
interface Report {
	mode: string;
	config: MonthConfig & { timeScale: number };
	wallMs: { total: number; month: number; settle: number };
	settled: boolean;
	load: Record<string, number>;
	executions: { total: number; byWorkflow: Record<string, Record<string, number>> };
	republish?: Republish;
	restart?: { day: number; downMs: number; waitingPayoutsAtStop: number; thoseEndedSuccess: number };
	standingDeposits: number;
	reconciliations: Array<{ day: number; status?: string; error?: string; seconds: number | null }>;
	planners: Array<{ day: number; status?: string; error?: string }>;
	[more: string]: unknown;
}

interface TrackedRun {
	day: number;
	id: string;
	startedAt: number;
	status?: string;
	error?: string;
	endedAt?: number;
}

async function main(): Promise<void> {
	const month = planMonth(CONFIG);
	const started = Date.now();
	log(`month (${CONFIG.label}): ${month.payouts.length} payouts in ${CONFIG.days} days of ${CONFIG.daySeconds} s, sandbox time x${TIME_SCALE}`);
	const sandbox = await sandboxForTheMonth();
	const emissions = watchEmissions(sandbox);
	const standIns = new StandIns(sandbox, new Map(month.payouts.map((p) => [p.payoutId, p])));
	await standIns.start();
	let env: Env | undefined;
	let operator: Operator | undefined;
	const load = new LoadMeter(() => env?.n8n.pid);
	try {
		env = await setUp(sandbox, standIns, month);
		const e = env;
		log(`n8n ${e.n8n.url} (log ${e.n8n.logFile}), sandbox ${e.sandbox.orchestrationUrl}; setup took ${Math.round((Date.now() - started) / 1000)} s`);
		const ledgerRowOf = async (orderId: string) => (await e.tables.rows(PAYOUT_TABLES.ledger)).find((r) => r.orderId === orderId);
		operator = new Operator(e.sandbox.orchestrationUrl, standIns, CONFIG.daySeconds * 1000, ledgerRowOf);
		standIns.onPaid = (payout, payment) => operator!.onPaid(payout, payment);
		operator.start();
		const standing = await standingAddress(e);
		const faults = new FaultBook(e.sandbox.orchestrationUrl);
		load.start();

		const reconciliations: TrackedRun[] = [];
		const planners: TrackedRun[] = [];
		let watching = true;
		// follows the reconciliations (a paused order resumes once one has seen it) and the planners
		const watcher = (async () => {
			while (watching) {
				for (const run of [...reconciliations, ...planners].filter((r) => r.endedAt === undefined)) {
					try {
						const ex = await executionOf(e.n8n, e.apiKey, run.id);
						if (!['success', 'error', 'crashed', 'canceled'].includes(ex.status)) continue;
						Object.assign(run, { status: ex.status, error: errorOf(ex), endedAt: Date.now() });
						if (reconciliations.includes(run)) await operator!.reconciliationEnded(run.startedAt);
					} catch {
						// n8n restarting
					}
				}
				await sleep(3000);
			}
		})();

		const monthStart = Date.now();
		const standingDeposits: string[] = [];
		let republish: Republish | undefined;
		let restart: Restart | undefined;
		for (let day = 1; day <= CONFIG.days; day++) {
			const dayStart = Date.now();
			const at = (fraction: number) => sleep(Math.max(0, dayStart + fraction * CONFIG.daySeconds * 1000 - Date.now()));
			await faults.arm(faultsOfDay(month, day), day);
			const reconciliationStart = Date.now();
			reconciliations.push({ day, id: await e.n8n.runManually(e.cookie, RECONCILIATION, 'Run now'), startedAt: reconciliationStart });
			const plannerStart = Date.now();
			planners.push({ day, id: await e.n8n.runManually(e.cookie, PAYOUTS, 'One payout', { planFor: month.planFor[day - 1] }), startedAt: plannerStart });
			log(`day ${day}: ${month.payouts.filter((p) => p.day === day).length} payouts planned; operator outstanding ${operator.outstanding}; load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
			if (day === CONFIG.republishDay || day === CONFIG.restartDay) {
				// while the day's payouts are being paid and their events arrive
				const today = new Set(month.payouts.filter((p) => p.day === day && p.row.method === 'quote').map((p) => p.payoutId));
				await until('half of the day\'s payouts paid', async () => standIns.payments.filter((p) => today.has(p.payoutId)).length >= today.size / 2 || undefined, CONFIG.daySeconds * 1000, 250).catch(() => undefined);
				if (day === CONFIG.republishDay) {
					republish = await republishLedgerFlow(e, day);
					log(`day ${day}: example 3 re-published in ${republish.ms} ms; endpoint ${republish.keptEndpoint ? 'kept' : `replaced (${republish.endpointsBefore} -> ${republish.endpointsAfter})`}`);
				}
				if (day === CONFIG.restartDay) {
					restart = await restartN8n(e, load, day);
					log(`day ${day}: n8n restarted, down ${restart.downMs} ms, ${restart.waitingPayoutsAtStop.length} payouts were waiting`);
				}
			}
			for (let k = 1; k <= CONFIG.standingDepositsPerDay; k++) {
				await at(k / (CONFIG.standingDepositsPerDay + 1));
				const paid = await sandboxCall(e, 'POST', '/sandbox/deposits', { depositAddress: standing, amount: String((1 + ((day * 7 + k) % 50)) * 1_000_000 + 250_000) });
				standingDeposits.push(String(paid.orderId));
			}
			await at(1);
		}
		const monthMs = Date.now() - monthStart;

		log('month done; waiting for every order, payout and delivery to settle');
		const settleStart = Date.now();
		let settled = true;
		await until(
			'the month to settle',
			async () => {
				const orders = ((await sandboxCall(e, 'GET', '/sandbox/orders')).orders as Array<{ order: { status: string } }>).filter((o) => !['completed', 'failed', 'refunded'].includes(o.order.status));
				const waiting = (await waitingPayouts(e)).length;
				const running = (await e.n8n.api<{ data: Execution[] }>(e.apiKey, 'GET', `/executions?status=running&limit=250`)).data.length;
				const hooks = ((await sandboxCall(e, 'GET', '/sandbox/webhooks')).webhooks as Array<{ webhookId: string; disabledAt?: string }>).filter((w) => !w.disabledAt).map((w) => w.webhookId);
				const pending = ((await sandboxCall(e, 'GET', '/sandbox/deliveries')).deliveries as Array<{ webhookId: string; state: string }>).filter((d) => d.state === 'pending' && hooks.includes(d.webhookId)).length;
				const open = [...reconciliations, ...planners].filter((r) => r.endedAt === undefined).length;
				if (Date.now() % 60_000 < 5000) log(`settling: ${orders.length} orders not final, ${waiting} payouts waiting, ${running} running, ${pending} deliveries pending, operator ${operator!.outstanding}, ${open} runs open`);
				return orders.length + waiting + running + pending + operator!.outstanding + open === 0 || undefined;
			},
			(short ? 15 : 30) * 60_000,
			5000,
		).catch((error: Error) => {
			settled = false;
			log(error.message);
		});
		const faultFigures = await faults.disarm();
		// the next morning's reconciliation, after the month
		const lastStart = Date.now();
		const last = await e.n8n.runManually(e.cookie, RECONCILIATION, 'Run now');
		const lastRun = await endedExecution(e.n8n, e.apiKey, last, 600_000);
		reconciliations.push({ day: CONFIG.days + 1, id: last, startedAt: lastStart, status: lastRun.status, error: errorOf(lastRun), endedAt: Date.now() });
		watching = false;
		await watcher;
		const settleMs = Date.now() - settleStart;
		const loadFigures = load.stop();

		const ledger: Row[] = await e.tables.rows(PAYOUT_TABLES.ledger);
		const records = await readSandbox(e.sandbox.orchestrationUrl, e.sandbox.gatewayUrl, e.serverKey);
		const figures = measure(month, ledger, records, standIns, operator, emissions, { 'example 3 (the ledger)': ledgerUrl(e), 'example 2 (Slack)': routerUrl(e) });
		const executions: Record<string, Record<string, number>> = {};
		let executionTotal = 0;
		for (const id of WORKFLOWS) {
			for (const ex of await executionsOf(e.n8n, e.apiKey, id)) {
				(executions[id] ??= {})[ex.status] = (executions[id][ex.status] ?? 0) + 1;
				executionTotal++;
			}
		}
		const restartSurvivors = restart ? await Promise.all(restart.waitingPayoutsAtStop.map(async (id) => (await executionOf(e.n8n, e.apiKey, id)).status)) : [];
		const report: Report = {
			mode: CONFIG.label,
			config: { ...CONFIG, timeScale: TIME_SCALE },
			wallMs: { total: Date.now() - started, month: monthMs, settle: settleMs },
			settled,
			load: loadFigures,
			executions: { total: executionTotal, byWorkflow: executions },
			faults: faultFigures,
			republish,
			restart: restart && { ...restart, waitingPayoutsAtStop: restart.waitingPayoutsAtStop.length, thoseEndedSuccess: restartSurvivors.filter((s) => s === 'success').length },
			standingDeposits: standingDeposits.length,
			reconciliations: reconciliations.map((r) => ({ day: r.day, status: r.status, error: r.error, seconds: r.endedAt ? Math.round((r.endedAt - r.startedAt) / 1000) : null })),
			planners: planners.map((r) => ({ day: r.day, status: r.status, error: r.error })),
			figures,
			paused: operator.paused,
			operatorSteps: operator.pending.map((p) => ({ payoutId: p.payout.payoutId, orderId: p.orderId, kind: p.kind, done: p.doneAt !== undefined, withoutMessage: p.withoutMessage, error: p.error })),
			walletRefusals: standIns.payments.filter((p) => p.result !== 'paid'),
		};
		const problems = print(report, figures, faultFigures);
		fs.writeFileSync(OUT, JSON.stringify({ ...report, problems }, null, 2));
		fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
		fs.writeFileSync(RESULTS, `${JSON.stringify(resultsOf(report, figures, faultFigures, problems), null, 2)}\n`);
		log(`figures written to ${OUT}; the results to commit to ${path.relative(REPO_ROOT, RESULTS)}`);
		if (problems.length) {
			console.log(`\nNOT 0 WHERE IT MUST BE, OR NOT SHOWN TO HAVE HAPPENED:\n- ${problems.join('\n- ')}`);
			process.exitCode = 1;
		}
	} finally {
		operator?.stop();
		load.stop();
		await env?.n8n.stop();
		await sandbox.close();
		await standIns.close();
	}
}

/** The report for people, and what broke the month's rules. */
function print(
	report: Report,
	f: Figures,
	faults: FaultReport,
): string[] {
	const min = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
	console.log(`\n## A month of payouts (${CONFIG.label}): ${f.payouts.planned} payouts, ${CONFIG.days} days`);
	console.log(`wall time ${min(report.wallMs.total)} (month ${min(report.wallMs.month)}, settling and the last reconciliation ${min(report.wallMs.settle)}); settled: ${report.settled}`);
	console.log(`machine: ${JSON.stringify(report.load)}`);
	console.log(`n8n executions: ${report.executions.total} ${JSON.stringify(report.executions.byWorkflow)}`);
	console.log(`payouts: planned ${f.payouts.planned}, in the ledger ${f.payouts.inLedger}, paid ${f.payouts.paid}, wallet hand-offs ${f.payouts.handOffs} (at most ${f.payouts.handOffsMaxPerReference} per reference; repeated ${f.payouts.handOffsRepeated.length})`);
	console.log(`orders: ${f.orders.total} (${f.orders.ofPayouts} of payouts, ${f.orders.ofStandingAddress} of the standing address from ${report.standingDeposits} deposits); gateway intents ${f.intents.total}`);
	console.log(`ledger: ${f.ledger.rows} rows, ${f.ledger.matched} matching an order or intent exactly; missing ${f.ledger.missing.length}, duplicated ${f.ledger.duplicated.length}, mismatched fields ${f.ledger.mismatched.length}, not final ${f.ledger.notFinal.length}, unmatched rows ${f.ledger.unmatched.length}`);
	console.log(`paid twice: ${f.paidTwice.length}; not paid: ${f.payouts.notPaid.length}`);
	console.log(`people: needed ${JSON.stringify(f.people.needed)}, reached ${JSON.stringify(f.people.reached)}, not reached ${f.people.notReached.length}`);
	console.log(`events emitted: ${f.events.emitted}; emitted while a workflow had no endpoint: ${JSON.stringify(Object.fromEntries(Object.entries(f.events.withoutEndpoint).map(([k, v]) => [k, v.length])))}, recovery events without a subscription: ${f.events.recoveryWithoutSubscription.length}`);
	console.log(`events: ${f.events.deliveries} deliveries ${JSON.stringify(f.events.byEvent)}, ${f.events.attempts} attempts, acknowledged ${f.events.acknowledged}, never acknowledged ${f.events.notAcknowledged.length}; refused attempts ${JSON.stringify(f.events.refusedAttempts)}`);
	console.log(`fault rules: ${faults.rules.length} armed, ${faults.rules.filter((r) => r.hit > 0).length} hit; by kind, armed / hit:`);
	for (const [kind, x] of Object.entries(faults.byKind)) console.log(`  ${kind}: ${x.armed} / ${x.hit} ${JSON.stringify(x.byRule)}`);
	const injectedQuote429 = faults.byKind['429 (live-shaped)']?.byRule['POST /v1/orchestration/quote status 429'] ?? 0;
	console.log(`  quotes answered 429: ${f.quoteLimiter.answered429} (${injectedQuote429} injected, ${f.quoteLimiter.answered429 - injectedQuote429} by the sandbox's limiter at the live limits); quote answers replayed after a lost answer: ${f.quoteLimiter.replaysAfterLostAnswers}`);
	console.log(`service scenarios: ${JSON.stringify(f.serviceScenarios)}`);
	console.log(`re-publish: ${JSON.stringify(report.republish)}; restart: ${JSON.stringify(report.restart)}`);
	return problemsOf(f, faults, { settled: report.settled, republished: report.republish !== undefined, restarted: report.restart !== undefined });
}

/** The run's figures for bench/results (what the README quotes): counts, and the lists that must be empty. */
function resultsOf(report: Report, f: Figures, faults: FaultReport, problems: string[]) {
	const count = (xs: unknown[]) => xs.length;
	return {
		benchmark: 'npm run bench:month',
		mode: CONFIG.label,
		ranAt: new Date().toISOString(),
		n8n: '2.41.1',
		config: report.config,
		wallMinutes: { total: Number((report.wallMs.total / 60_000).toFixed(1)), month: Number((report.wallMs.month / 60_000).toFixed(1)), settle: Number((report.wallMs.settle / 60_000).toFixed(1)) },
		settled: report.settled,
		machine: report.load,
		executions: report.executions,
		payouts: { ...f.payouts, notPaid: count(f.payouts.notPaid) },
		handOffs: { total: f.payouts.handOffs, maxPerReference: f.payouts.handOffsMaxPerReference, repeated: f.payouts.handOffsRepeated },
		paidTwice: f.paidTwice,
		orders: { ...f.orders, notFinal: count(f.orders.notFinal) },
		intents: f.intents,
		ledger: { rows: f.ledger.rows, matched: f.ledger.matched, missing: count(f.ledger.missing), duplicated: count(f.ledger.duplicated), mismatched: count(f.ledger.mismatched), notFinal: count(f.ledger.notFinal), unmatched: count(f.ledger.unmatched) },
		people: { needed: f.people.needed, reached: f.people.reached, notReached: count(f.people.notReached) },
		events: {
			emitted: f.events.emitted,
			withoutEndpoint: Object.fromEntries(Object.entries(f.events.withoutEndpoint).map(([k, v]) => [k, v.length])),
			recoveryWithoutSubscription: count(f.events.recoveryWithoutSubscription),
			deliveries: f.events.deliveries, byEvent: f.events.byEvent, attempts: f.events.attempts, acknowledged: f.events.acknowledged,
			notAcknowledged: count(f.events.notAcknowledged), refusedAttempts: f.events.refusedAttempts,
		},
		faults: {
			rulesArmed: faults.rules.length,
			rulesHit: faults.rules.filter((r) => r.hit > 0).length,
			neverHit: faults.rules.filter((r) => r.hit === 0).map((r) => `day ${r.day}: ${r.rule}`),
			byKind: Object.fromEntries(Object.entries(faults.byKind).map(([k, x]) => [k, { armed: x.armed, hit: x.hit }])),
		},
		quoteLimiter: f.quoteLimiter,
		serviceScenarios: f.serviceScenarios,
		republish: report.republish && { day: report.republish.day, keptEndpoint: report.republish.keptEndpoint, ms: report.republish.ms },
		restart: report.restart,
		failedRuns: {
			reconciliations: report.reconciliations.filter((r) => r.status !== 'success'),
			planners: report.planners.filter((r) => r.status !== 'success'),
		},
		problems,
	};
}

main().then(
	() => process.exit(process.exitCode ?? 0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
