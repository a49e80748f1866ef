/**
 * The flows a team leaves running, in the real n8n editor (headless Chromium): a payout paid by
 * example 1, orders that send no webhook and a deposit nothing matches, then example 7's
 * reconciliation run from its "Run now" trigger in the editor; its Slack report in the output panel
 * and the payout ledger in n8n's Data Table view. Screenshots for the README: docs/images/
 * reconciliation-*.png, and the examples as shipped (example-1/2/3/4/7-*.png).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PAYOUT_TABLES, forSandbox, loadExamples } from '../../scripts/lib/examples';
import { CUSTOM_PREFIX, REPO_ROOT, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { closeEnv, createEnv, type E2eEnv } from '../e2e/env';
import { PAYOUTS, RECONCILIATION, ROUTE, SandboxCalls, runToEnd, startWithExamples, type Running } from '../e2e/examplesInN8n';
import { until } from '../e2e/sandbox-client';

const SHOTS = path.join(REPO_ROOT, 'docs', 'images');
const STANDING_REF = 'customer-42';
/** The examples as shipped (no stand-ins), imported under their own ids for the canvas screenshots. */
const SHIPPED: Record<string, string> = {
	exRecurringPayout: 'example-1-recurring-payout.png',
	exOrderEventsSlack: 'example-2-order-events-to-slack.png',
	exOrderEventsLedger: 'example-3-order-events-to-ledger.png',
	exGatewayDeposit: 'example-4-gateway-deposit.png',
	exDailyReconciliation: 'example-7-daily-reconciliation.png',
};

/** The nodes of each shipped example (sticky notes aside), and which of them are this package's. */
const shippedNodes = new Map<string, Array<{ name: string; ours: boolean }>>();

let env: E2eEnv;
let running: Running;
let sb: SandboxCalls;
let browser: Browser;
let page: Page;

async function shot(file: string, clip?: { width: number; height: number }): Promise<void> {
	fs.mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: path.join(SHOTS, file), ...(clip ? { clip: { x: 0, y: 0, ...clip } } : {}) });
}

/** The canvas node whose name is exactly `name`. */
function canvasNode(name: string) {
	return page.locator('[data-test-id="canvas-node"]').filter({ has: page.getByText(name, { exact: true }) });
}

async function openWorkflow(id: string): Promise<void> {
	await page.goto(`${env.n8n.url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 120_000 });
	await page.waitForTimeout(2000);
}

beforeAll(async () => {
	env = await createEnv({ timeScale: 10 });
	sb = new SandboxCalls(env);
	const shipped = loadExamples().filter((e) => e.workflow.id in SHIPPED);
	for (const e of shipped) {
		const nodes = (e.workflow.nodes as Array<{ name: string; type: string }>).filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
		shippedNodes.set(e.workflow.id, nodes.map((n) => ({ name: n.name, ours: !n.type.startsWith('n8n-nodes-base.') && !n.type.startsWith('@n8n/') })));
	}
	await env.n8n.importWorkflows(
		shipped.map((e) => forSandbox(withNodePrefix({ ...e.workflow, id: `shipped${e.workflow.id}`, name: `${e.workflow.name} (as shipped)` }, CUSTOM_PREFIX), env.sandbox)),
	);
	running = await startWithExamples(env, {
		schedule: [{ payoutKey: 'rent-alice', enabled: true, every: 'month', method: 'quote', amount: '125.50', ...ROUTE, recipient: '0x1111111111111111111111111111111111111111', zeroconf: false, note: '' }],
		standingReference: STANDING_REF,
	});
	browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
	});
	const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
	const url = new URL(env.n8n.url);
	await context.addCookies(
		running.cookie.split('; ').map((c) => {
			const [name, ...rest] = c.split('=');
			return { name, value: rest.join('='), domain: url.hostname, path: '/' };
		}),
	);
	page = await context.newPage();
}, 600_000);

afterEach(async () => {
	// What the page showed when a step failed, for the one who reads the failure (not committed).
	if (page) await page.screenshot({ path: path.join(os.tmpdir(), `browser-last-${Date.now()}.png`) });
});

afterAll(async () => {
	await browser?.close();
	await closeEnv(env);
});

describe('the flows left running, in the editor', () => {
	it('shows each example as shipped: every node on the canvas, none of this package\'s with an issue', async () => {
		await page.setViewportSize({ width: 2200, height: 1200 });
		for (const [id, file] of Object.entries(SHIPPED)) {
			await openWorkflow(`shipped${id}`);
			const nodes = shippedNodes.get(id)!;
			expect(nodes.filter((n) => n.ours).length).toBeGreaterThan(0);
			// each node of the workflow on the canvas once, showing its name
			for (const n of nodes) expect({ id, node: n.name, shown: await canvasNode(n.name).count() }).toEqual({ id, node: n.name, shown: 1 });
			// the package's nodes load with their parameters complete (no warning triangle); Slack and
			// other nodes without credentials here may carry one
			for (const n of nodes.filter((x) => x.ours)) expect({ id, node: n.name, issues: await canvasNode(n.name).locator('[data-test-id="node-issues"]').count() }).toEqual({ id, node: n.name, issues: 0 });
			await shot(file);
		}
		await page.setViewportSize({ width: 1600, height: 900 });
	});

	it("runs the reconciliation from its trigger, and shows the report and the ledger it wrote", async () => {
		// a payout paid and followed to completed by example 1
		await runToEnd(env, running, PAYOUTS);
		await until('the payout final in the ledger', async () => (await running.tables.rows(PAYOUT_TABLES.ledger)).find((r) => String(r.payoutId).startsWith('rent-alice-') && r.final === true), 180_000, 1000);
		// orders that send no webhook, a quote never paid, a deposit nothing matches
		const paused = await sb.order({ autoAdvance: false });
		const expired = await sb.order({ autoAdvance: false });
		for (const o of [paused, expired]) await until('its ledger row', async () => (await running.tables.rows(PAYOUT_TABLES.ledger)).find((r) => r.orderId === o.orderId), 60_000, 1000);
		await sb.call('POST', `/sandbox/orders/${paused.orderId}/report`, { status: 'paused' });
		await sb.call('POST', `/sandbox/orders/${expired.orderId}/report`, { status: 'expired' });
		const unpaid = await sb.quote();
		await running.tables.insert(PAYOUT_TABLES.ledger, [{ payoutId: 'supplier-bob-2026-11', origin: 'schedule', method: 'quote', quoteId: unpaid.quoteId, status: 'quoted', final: false, attention: '' }]);
		const evm = await sb.standingAddress(STANDING_REF, '0x1111111111111111111111111111111111111111');
		await sb.pauseStandingAddress(STANDING_REF);
		await sb.call('POST', '/sandbox/deposits', { depositAddress: evm, amount: '1500000' });
		await until('the quote to expire', async () => Date.now() > Date.parse(unpaid.expiresAt) + 1000 || undefined, 60_000, 1000);

		await openWorkflow(RECONCILIATION);
		// the trigger's own "Execute workflow" button (the canvas pane lies over it until hovered: dispatch the click to it)
		await page.locator('[data-test-id="execute-workflow-button-Run now"]').first().dispatchEvent('click');
		const report = page.locator('[data-test-id="canvas-node"]', { hasText: 'Report to #payouts' });
		await report.locator('[data-test-id="canvas-node-status-success"]').waitFor({ timeout: 240_000 });
		// the run as the screenshot shows it: the trigger and the report green, nothing of this package flagged
		expect(await canvasNode('Run now').locator('[data-test-id="canvas-node-status-success"]').count()).toBe(1);
		for (const n of shippedNodes.get('exDailyReconciliation')!.filter((x) => x.ours)) {
			expect({ node: n.name, issues: await canvasNode(n.name).locator('[data-test-id="node-issues"]').count() }).toEqual({ node: n.name, issues: 0 });
		}
		await shot('reconciliation-run.png');

		await report.first().dblclick();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.waitFor({ timeout: 60_000 });
		await output.getByText('items need a person', { exact: false }).first().waitFor({ timeout: 60_000 });
		// what the person reading #payouts must see: the heading, each item that needs them, by name or order
		const shown = async (text: string | RegExp) => ({ text: String(text), shown: (await output.getByText(text, { exact: false }).count()) > 0 });
		for (const text of [/Reconciliation \d{4}-\d{2}-\d{2}: \d+ items need a person/, 'Paused by the service', 'supplier-bob-2026-11', paused.orderId, expired.orderId, 'deposit held']) {
			expect(await shown(text)).toEqual({ text: String(text), shown: true });
		}
		// only what needs a person: the completed payout is not in the report
		expect(await shown('rent-alice-')).toEqual({ text: 'rent-alice-', shown: false });
		await shot('reconciliation-report.png');
		await page.keyboard.press('Escape');

		const ledgerId = await running.tables.idOf(PAYOUT_TABLES.ledger);
		const { projectId } = await env.n8n.api<{ projectId: string }>(running.apiKey, 'GET', `/data-tables/${ledgerId}`);
		await page.setViewportSize({ width: 2200, height: 900 });
		await page.goto(`${env.n8n.url}/projects/${projectId}/datatables/${ledgerId}`);
		// the ledger's first columns: payoutId, status, final, attention
		await page.getByText('deposit held', { exact: true }).first().waitFor({ timeout: 120_000 });
		for (const status of ['completed', 'paused', 'expired']) expect({ status, shown: (await page.getByText(status, { exact: true }).count()) > 0 }).toEqual({ status, shown: true });
		// the rows behind them: the payout paid by example 1, the quote never paid
		for (const payout of [/^rent-alice-/, 'supplier-bob-2026-11']) {
			expect({ payout: String(payout), shown: (await page.getByText(payout, { exact: true }).count()) > 0 }).toEqual({ payout: String(payout), shown: true });
		}
		await page.waitForTimeout(1500);
		await shot('reconciliation-ledger.png', { width: 2200, height: 320 });
	});
});
