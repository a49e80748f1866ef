/* eslint-disable @typescript-eslint/no-explicit-any -- execution data is arbitrary JSON asserted field by field */
/**
 * What n8n 2.41.1's Slack send-and-wait step hands on, as the examples' approval steps are set up,
 * with the real Slack node (slack.com's Web API answered on this machine, test/e2e/slackApi.ts) and
 * a person clicking the message's buttons: after a click on Approve `{ data: { approved: true,
 * respondedAt } }`, after a click on Decline the same with `false`, and when the wait limit passes
 * the step's input item unchanged (no answer at all). The Slack stand-ins the other suites use
 * (test/e2e/slackStandIns.ts) are checked against these answers.
 */
import { loadExamples } from '../../scripts/lib/examples';
import { endedExecution, executionOf, lastOutput, type Execution } from '../../scripts/lib/executions';
import { OWNER, closeEnv, createEnv, type E2eEnv } from './env';
import { SlackApiStandIn } from './slackApi';
import { type ApprovalAnswer, withSlackStandIns } from './slackStandIns';
import { until } from './sandbox-client';

const ASK = 'Ask for approval in Slack';
const REQUEST = { invoice: 'INV-E2E-1', amountUsdc: '250', recipient: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' };
const SLACK_CREDENTIAL = { id: 'slackE2eStandIn', name: 'Slack (slack.com stand-in)' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let env: E2eEnv;
let slack: SlackApiStandIn;
let cookie: string;
let apiKey: string;

/** Example 6's approval step, its approval type and wait limit as given, between the payout request and a step after it. */
function askFlow(id: string, approvalType: 'single' | 'double', limit: 'soon' | 'day') {
	const example = loadExamples().find((e) => e.workflow.id === 'exApprovedPayout')!.workflow;
	const ask = JSON.parse(JSON.stringify(example.nodes.find((n) => n.name === ASK))) as { parameters: any; [k: string]: unknown };
	ask.parameters.approvalOptions.values.approvalType = approvalType;
	if (limit === 'soon') ask.parameters.options.limitWaitTime.values = { limitType: 'atSpecifiedTime', maxDateAndTime: '={{ $now.plus({ seconds: 2 }).toISO() }}' };
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{ id: 's0', name: 'Run now', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 's1',
				name: 'Payout request',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: { mode: 'manual', assignments: { assignments: Object.entries(REQUEST).map(([name, value], i) => ({ id: `a${i}`, name, value, type: 'string' })) }, options: {} },
			},
			{ ...ask, id: 's2', position: [440, 0], credentials: { slackApi: SLACK_CREDENTIAL }, webhookId: `${id}-webhook` },
			{ id: 's3', name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [660, 0], parameters: {} },
		],
		connections: {
			'Run now': { main: [[{ node: 'Payout request', type: 'main', index: 0 }]] },
			'Payout request': { main: [[{ node: ASK, type: 'main', index: 0 }]] },
			[ASK]: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
	};
}

const standIn = (answer: ApprovalAnswer) => withSlackStandIns(askFlow(`standIn-${answer}`, 'double', 'day') as never, answer);

async function run(id: string): Promise<string> {
	return await env.n8n.runManually(cookie, id, 'Run now');
}

async function ended(id: string): Promise<Execution> {
	const ex = await endedExecution(env.n8n, apiKey, id, 240_000);
	expect(ex.status).toBe('success');
	return ex;
}

/** The question was posted to Slack, with these buttons, before anything was answered. */
async function asked(executionId: string): Promise<Array<{ label: string; url: string }>> {
	return await until(`the message of execution ${executionId}`, async () => {
		const buttons = slack.buttonsOf(executionId);
		return buttons.length > 0 ? buttons : undefined;
	}, 60_000, 250);
}

beforeAll(async () => {
	slack = await SlackApiStandIn.start();
	env = await createEnv({ extraEnv: slack.env() });
	await env.n8n.importCredentials([{ ...SLACK_CREDENTIAL, type: 'slackApi', data: { accessToken: 'xoxb-e2e-not-a-token' } }]);
	await env.n8n.importWorkflows([
		askFlow('singleNoAnswer', 'single', 'soon'),
		askFlow('doubleNoAnswer', 'double', 'soon'),
		askFlow('doubleDecline', 'double', 'day'),
		askFlow('doubleApprove', 'double', 'day'),
		standIn('timeout'),
		standIn('decline'),
		standIn('approve'),
	]);
	await env.n8n.start();
	cookie = await env.n8n.setupOwner(OWNER);
	apiKey = await env.n8n.createApiKey(cookie);
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
	await slack?.close();
});

describe("n8n 2.41.1's Slack send and wait (the examples' approval step)", () => {
	const real: Record<string, Record<string, unknown>> = {};

	it('when nobody answers before the wait limit, hands on its input item unchanged, with no answer in it (one button or two)', async () => {
		const ids = { single: await run('singleNoAnswer'), double: await run('doubleNoAnswer') };
		expect((await asked(ids.single)).map((b) => b.label)).toEqual(['Approve payout']);
		expect((await asked(ids.double)).map((b) => b.label).sort()).toEqual(['Approve payout', 'Decline']);
		for (const id of Object.values(ids)) {
			const ex = await ended(id);
			expect(lastOutput(ex, ASK)).toEqual([REQUEST]);
			expect(lastOutput(ex, 'After')).toEqual([REQUEST]);
		}
		real.timeout = lastOutput(await ended(ids.double), ASK)[0];
	});

	it.each([
		['Decline', 'decline', false],
		['Approve payout', 'approve', true],
	] as const)('after a click on %s (%s), hands on only the answer: { data: { approved, respondedAt } }', async (label, answer, approved) => {
		const id = await run(answer === 'decline' ? 'doubleDecline' : 'doubleApprove');
		const button = (await asked(id)).find((b) => b.label === label)!;
		// n8n posts the message, then parks the execution: a person clicks once it waits
		await until(`execution ${id} to wait`, async () => ((await executionOf(env.n8n, apiKey, id)).status === 'waiting' ? true : undefined), 60_000, 250);
		expect(button.url).toContain(`approved=${String(approved)}`);
		expect(await slack.click(button.url)).toBe(200);
		const [out] = lastOutput(await ended(id), ASK) as any[];
		expect(out).toEqual({ data: { approved, respondedAt: expect.stringMatching(ISO) } });
		real[answer] = out;
	});

	it('the Slack stand-ins of the other suites answer as n8n does (plus the message they would have sent)', async () => {
		expect(Object.keys(real).sort()).toEqual(['approve', 'decline', 'timeout']);
		for (const answer of ['timeout', 'decline', 'approve'] as const) {
			const [out] = lastOutput(await ended(await run(`standIn-${answer}`)), ASK) as any[];
			if (answer === 'timeout') expect(out).toEqual(real.timeout);
			else expect({ data: out.data }).toEqual({ data: { approved: (real[answer].data as any).approved, respondedAt: expect.stringMatching(ISO) } });
		}
		expect(slack.calls.filter((c) => c.path === '/api/chat.postMessage')).toHaveLength(4);
	});
});
