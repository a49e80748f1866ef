/**
 * The package inside a real n8n 2.41.1: every operation of both action nodes through `n8n execute`,
 * the trigger with real signed deliveries (duplicates, retries, forgeries), a restart, the example
 * workflows, and a search of every execution and n8n's logs for secrets.
 */
import { closeEnv, createEnv, executeWorkflow, type E2eEnv } from './env';
import { orchestrationWorkflows } from './orchestration.flows';

let env: E2eEnv;

beforeAll(async () => {
	env = await createEnv();
	await env.n8n.importWorkflows(orchestrationWorkflows(env.sandbox.orchestrationUrl).map((f) => f.workflow));
}, 600_000);

afterAll(async () => {
	await closeEnv(env);
});

describe('Orchestration node in n8n', () => {
	for (const flow of orchestrationWorkflowsForNames()) {
		it(flow.title, async () => {
			const result = await executeWorkflow(env, flow.id);
			if (process.env.E2E_DEBUG) console.log(result.raw.slice(0, 3000));
			flow.check(result, env);
		});
	}
});

function orchestrationWorkflowsForNames() {
	// Titles and checks do not depend on the sandbox URL; build them once with a placeholder.
	return orchestrationWorkflows('http://placeholder');
}
