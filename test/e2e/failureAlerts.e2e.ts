/**
 * Every failure reaches a person, in a real n8n 2.41.1: example 7 as shipped (orderLinkBase a sandbox
 * URL) with its credential switched to a live-looking service (https, not loopback: Check Settings
 * sends nothing, so no such service needs to answer), run by its schedule as a team runs it. The run
 * stops at Check settings, before any read, with a message naming the setting; n8n then runs the
 * error workflow the example names (example 8, published), whose Slack step (a stand-in, see
 * slackStandIns.ts) gets the workflow, the node, the error and the execution link.
 */
import { ERROR_WORKFLOW, loadExamples, pickSandboxKeys, withWalletStandIns } from '../../scripts/lib/examples';
import { endedExecution, executionsOf, lastOutput, type Execution } from '../../scripts/lib/executions';
import { CUSTOM_PREFIX, withNodePrefix } from '../../scripts/lib/n8n-instance';
import { OWNER, closeEnv, createEnv, type E2eEnv } from './env';
import { until } from './sandbox-client';
import { withSlackStandIns } from './slackStandIns';

const RECONCILIATION = 'exDailyReconciliation';
/** A base URL of the live service's kind: https on a host that is not this machine (nothing is sent to it). */
const LIVE_BASE = 'https://api.orchestration.example.com';
const LIVE_CREDENTIAL = { id: 'orchLiveLookingServerKey', name: 'Orchestration live (server key)' };

type Wf = { id: string; name: string; nodes: Array<{ name: string; type: string; parameters: Record<string, unknown>; credentials?: Record<string, unknown> }>; settings?: Record<string, unknown> };

let env: E2eEnv;
let apiKey: string;
let shipped: Wf;

/** Example 7 as a team switches it to the live service: every orchestration credential the live one, the schedule ticking every 5 s. */
function switchedToLive(wf: Wf): Wf {
	return {
		...wf,
		nodes: wf.nodes.map((n) => {
			if (n.name === 'Every day 06:00') return { ...n, parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 5 }] } } };
			if (n.credentials && 'orchestrationServerApi' in n.credentials) return { ...n, credentials: { orchestrationServerApi: LIVE_CREDENTIAL } };
			return n;
		}),
	};
}

const prepare = (wf: Wf): Wf => withNodePrefix(withWalletStandIns(withSlackStandIns(wf as never), env.sandbox), CUSTOM_PREFIX) as unknown as Wf;

beforeAll(async () => {
	env = await createEnv();
	const examples = loadExamples();
	shipped = examples.find((e) => e.workflow.id === RECONCILIATION)!.workflow as unknown as Wf;
	const alerts = examples.find((e) => e.workflow.id === ERROR_WORKFLOW)!.workflow as unknown as Wf;
	await env.n8n.importCredentials([{ ...LIVE_CREDENTIAL, type: 'orchestrationServerApi', data: { baseUrl: LIVE_BASE, apiKey: pickSandboxKeys(env.sandbox).server.key } }]);
	// as shipped: orderLinkBase stays the sandbox's default address (no forSandbox: nothing reads it here)
	await env.n8n.importWorkflows([switchedToLive(prepare(shipped)), prepare(alerts)] as never);
	for (const id of [RECONCILIATION, ERROR_WORKFLOW]) {
		const r = await env.n8n.cli(['publish:workflow', `--id=${id}`]);
		if (r.code !== 0) throw new Error(`publish ${id}: ${r.stderr || r.stdout}`);
	}
	await env.n8n.start();
	apiKey = await env.n8n.createApiKey(await env.n8n.setupOwner(OWNER));
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('a flow whose settings still point at the sandbox, on a live credential', () => {
	let failed: Execution;

	it('stops at Check settings on its schedule, before any read, naming the setting, its value and the live service', async () => {
		expect(shipped.settings?.errorWorkflow).toBe(ERROR_WORKFLOW);
		const first = await until(
			'a scheduled run of example 7 that ended',
			async () => (await executionsOf(env.n8n, apiKey, RECONCILIATION)).filter((e) => e.status !== 'running' && e.status !== 'new').at(-1),
			120_000,
		);
		await env.n8n.api(apiKey, 'POST', `/workflows/${RECONCILIATION}/deactivate`);
		failed = await endedExecution(env.n8n, apiKey, first.id, 60_000);
		expect(failed).toMatchObject({ mode: 'trigger', status: 'error' });
		const result = failed.data?.resultData as { error?: { message?: string }; lastNodeExecuted?: string; runData: Record<string, unknown> };
		expect(result.lastNodeExecuted).toBe('Check settings');
		expect(result.error?.message).toBe(
			`orderLinkBase points at the sandbox (http://127.0.0.1:8787/sandbox/orders/) while this credential reaches the live service (${LIVE_BASE}): change it in the Settings node`,
		);
		expect(Object.keys(result.runData).sort()).toEqual(['Check settings', 'Every day 06:00', 'Settings']);
	});

	it('n8n runs the error workflow the example names: the alert names the workflow, the node, the error and the execution', async () => {
		const alert = await until('the error workflow run for that execution', async () => {
			for (const e of await executionsOf(env.n8n, apiKey, ERROR_WORKFLOW)) {
				const ended = await endedExecution(env.n8n, apiKey, e.id, 60_000);
				if (String(lastOutput(ended, 'Alert #payouts')[0]?.slackText ?? '').includes(`/executions/${failed.id}`)) return ended;
			}
			return undefined;
		});
		expect(alert).toMatchObject({ mode: 'error', status: 'success' });
		const [posted] = lastOutput(alert, 'Alert #payouts');
		expect(posted.slackChannel).toBe('#payouts');
		const text = String(posted.slackText);
		expect(text).toContain(`*${shipped.name}* failed at node *Check settings*`);
		expect(text).toContain('orderLinkBase points at the sandbox (http://127.0.0.1:8787/sandbox/orders/) while this credential reaches the live service');
		expect(text).toContain('Settings that point at the sandbox: orderLinkBase.');
		expect(text).toMatch(new RegExp(`Execution: http://127\\.0\\.0\\.1:\\d+/workflow/${RECONCILIATION}/executions/${failed.id}$`));
	});
});
