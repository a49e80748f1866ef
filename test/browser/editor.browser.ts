/**
 * The real n8n editor in headless Chromium (issue 22): example 6 runs green from the UI against the
 * sandbox (its Slack steps replaced by stand-ins, test/e2e/slackStandIns.ts), the QR image shows in
 * the output panel, the asset picker searches, the trigger's fields can be mapped before any event
 * arrived (pinned sample event) and an action's before it ran (output schema). Screenshots go to
 * docs/images/browser-*.png.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CUSTOM_PREFIX, REPO_ROOT, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { forSandbox, loadExamples } from '../../scripts/lib/examples';
import { OWNER, closeEnv, createEnv, type E2eEnv } from '../e2e/env';
import { withSlackStandIns } from '../e2e/slackStandIns';

const SHOTS = path.join(REPO_ROOT, 'docs', 'images');
const MAPPING_WORKFLOW = 'brTriggerMapping';

let env: E2eEnv;
let browser: Browser;
let page: Page;
let cookie: string;

/** A quote step that never ran, followed by another Orchestration step: its input can only come from the output schema. */
function triggerMappingWorkflow(): Record<string, unknown> {
	return {
		id: MAPPING_WORKFLOW,
		name: 'Browser: map a quote before it ran',
		nodes: [
			{ id: 't0', name: 'Run now', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [-260, 0], parameters: {} },
			{ id: 't1', name: 'Create quote', type: `${CUSTOM_PREFIX}orchestration`, typeVersion: 3, position: [0, 0], parameters: { authentication: 'serverKey', resource: 'quote', operation: 'create' }, credentials: { orchestrationServerApi: { id: 'orchSandboxServerKey', name: 'Orchestration sandbox (server key)' } } },
			// n8n previews a schema in the input panel of community (not core) nodes only
			{ id: 't2', name: 'Order details', type: `${CUSTOM_PREFIX}orchestration`, typeVersion: 3, position: [260, 0], parameters: { authentication: 'serverKey', resource: 'order', operation: 'getStatus', lookupBy: 'id', id: '' }, credentials: { orchestrationServerApi: { id: 'orchSandboxServerKey', name: 'Orchestration sandbox (server key)' } } },
		],
		connections: { 'Run now': { main: [[{ node: 'Create quote', type: 'main', index: 0 }]] }, 'Create quote': { main: [[{ node: 'Order details', type: 'main', index: 0 }]] } },
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

const VERSIONS_WORKFLOW = 'brSchemaVersions';

/** Get Status at node version 2 and at 3, each followed by a step that never ran: their input previews come from each version's own schema. */
function schemaVersionsWorkflow(): Record<string, unknown> {
	const credentials = { orchestrationServerApi: { id: 'orchSandboxServerKey', name: 'Orchestration sandbox (server key)' } };
	const status = { authentication: 'serverKey', resource: 'order', operation: 'getStatus', lookupBy: 'id', id: 'ord_1' };
	const node = (id: string, name: string, typeVersion: number, position: number[], parameters: Record<string, unknown>) => ({ id, name, type: `${CUSTOM_PREFIX}orchestration`, typeVersion, position, parameters, credentials });
	const limits = { authentication: 'serverKey', resource: 'route', operation: 'getLimits' };
	return {
		id: VERSIONS_WORKFLOW,
		name: 'Browser: output schemas by node version',
		nodes: [
			{ id: 'v0', name: 'Run now', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [-260, 0], parameters: {} },
			node('v1', 'Status v2', 2, [0, 0], status),
			node('v2', 'After v2', 3, [260, 0], limits),
			node('v3', 'Status v3', 3, [0, 200], status),
			node('v4', 'After v3', 3, [260, 200], limits),
		],
		connections: {
			'Run now': { main: [[{ node: 'Status v2', type: 'main', index: 0 }, { node: 'Status v3', type: 'main', index: 0 }]] },
			'Status v2': { main: [[{ node: 'After v2', type: 'main', index: 0 }]] },
			'Status v3': { main: [[{ node: 'After v3', type: 'main', index: 0 }]] },
		},
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

afterEach(async () => {
	// What the page showed when a step failed, for the one who reads the failure (not committed).
	if (page) await page.screenshot({ path: path.join(os.tmpdir(), `browser-last-${Date.now()}.png`) });
});

async function shot(name: string): Promise<void> {
	fs.mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: path.join(SHOTS, `browser-${name}.png`) });
}

async function openWorkflow(id: string): Promise<void> {
	await page.goto(`${env.n8n.url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 120_000 });
}

async function openNode(name: string): Promise<void> {
	await page.locator('[data-test-id="canvas-node"]', { hasText: name }).first().dblclick();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ timeout: 60_000 });
}

beforeAll(async () => {
	env = await createEnv();
	const examples = loadExamples().map((e) => forSandbox(withNodePrefix(withSlackStandIns(e.workflow as never), CUSTOM_PREFIX), env.sandbox));
	await env.n8n.importWorkflows([...examples, triggerMappingWorkflow(), schemaVersionsWorkflow()]);
	await env.n8n.start();
	cookie = await env.n8n.setupOwner(OWNER);
	browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
	});
	const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
	const url = new URL(env.n8n.url);
	await context.addCookies(
		cookie.split('; ').map((c) => {
			const [name, ...rest] = c.split('=');
			return { name, value: rest.join('='), domain: url.hostname, path: '/' };
		}),
	);
	page = await context.newPage();
}, 600_000);

afterAll(async () => {
	await browser?.close();
	await closeEnv(env);
});

describe('the n8n editor', () => {
	it('runs example 6 green from the UI with the sandbox, and shows the QR image in the output panel', async () => {
		await openWorkflow('exApprovedPayout');
		await page.locator('[data-test-id="execute-workflow-button"]').first().click();
		// The last node's output appears when the whole run (estimate, quote, pay, wait until final) succeeded.
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Summary' }).locator('[data-test-id="canvas-node-status-success"]').waitFor({ timeout: 240_000 });
		await shot('example-6-run');
		await openNode('Create quote');
		await page.getByText('Binary', { exact: true }).first().click();
		await page.locator('[data-test-id="ndv-view-binary-data"]').first().click();
		const image = page.locator('.binary-data-window img').first();
		await image.waitFor({ timeout: 60_000 });
		expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(200);
		await shot('qr-in-output-panel');
	});

	it('searches the asset picker', async () => {
		await page.keyboard.press('Escape');
		await openNode('Create quote');
		await page.locator('[data-test-id="parameter-input-sourceAsset"]').first().click();
		await page.keyboard.type('usd coin');
		const items = page.locator('[data-test-id="rlc-item"]');
		await items.first().waitFor({ timeout: 60_000 });
		const labels = await items.allInnerTexts();
		expect(labels.some((l) => /USD Coin \(USDC\)/.test(l))).toBe(true);
		await shot('asset-picker-search');
	});

	it("maps the trigger's fields before any event arrived (example 3's pinned sample event)", async () => {
		// n8n 2.41's editor gives trigger nodes no schema preview ("Trigger nodes do not have schema
		// previews"): the examples pin a real sandbox event on the trigger instead.
		await openWorkflow('exOrderEventsLedger');
		await openNode('Order with amounts');
		const input = page.locator('[data-test-id="ndv-input-panel"]');
		await input.getByText('amountIn', { exact: true }).first().waitFor({ timeout: 60_000 });
		expect(await input.getByText('event', { exact: true }).first().isVisible()).toBe(true);
		await shot('trigger-fields-before-first-event');
		await page.keyboard.press('Escape');
	});

	it("maps an action node's fields before it ran (its output schema from __schema__)", async () => {
		await openWorkflow(MAPPING_WORKFLOW);
		await openNode('Order details');
		const input = page.locator('[data-test-id="ndv-input-panel"]');
		// The editor's preview of a node that never ran: "Usually outputs the following fields", from /schemas/...
		await input.getByText('Usually outputs the following fields', { exact: false }).first().waitFor({ timeout: 60_000 });
		expect(await input.getByText('amountInFormatted', { exact: true }).first().isVisible()).toBe(true);
		expect(await input.getByText('quoteId', { exact: true }).first().isVisible()).toBe(true);
		await shot('schema-preview-before-run');
	});

	it('previews the output schema of the node version the workflow stores (Get Status 2 has no waitedVia, 3 has)', async () => {
		/** The schema the editor fetched for the parent's Get Status (/schemas/<node>/<version>/order/getStatus.json), once it previews it. */
		const preview = async (next: string): Promise<{ version: string; fields: string[] }> => {
			await page.keyboard.press('Escape');
			const fetched = page.waitForResponse((r) => /\/schemas\/[^/]*orchestration\/[^/]+\/order\/getStatus\.json$/.test(new URL(r.url()).pathname), { timeout: 120_000 });
			await openWorkflow(VERSIONS_WORKFLOW);
			await openNode(next);
			const response = await fetched;
			const input = page.locator('[data-test-id="ndv-input-panel"]');
			await input.getByText('Usually outputs the following fields', { exact: false }).first().waitFor({ timeout: 60_000 });
			expect(await input.getByText('amountInFormatted', { exact: true }).first().isVisible()).toBe(true);
			const version = /orchestration\/([^/]+)\//.exec(new URL(response.url()).pathname)![1];
			return { version, fields: Object.keys(((await response.json()) as { properties: object }).properties) };
		};
		const v3 = await preview('After v3');
		expect(v3.version).toMatch(/^3(\.0\.0)?$/);
		expect(v3.fields).toEqual(expect.arrayContaining(['waitEndedBy', 'waitedVia', 'actionRequired']));
		const v2 = await preview('After v2');
		expect(v2.version).toMatch(/^2(\.0\.0)?$/);
		expect(v2.fields).toContain('waitEndedBy');
		expect(v2.fields).not.toContain('waitedVia');
		expect(v2.fields).not.toContain('actionRequired');
	});
});
