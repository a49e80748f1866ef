/**
 * Webhook > Delete against the sandbox over HTTP: an endpoint and a recovery subscription by ID; an
 * unknown ID is not_found.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
});

const node = (parameters: INodeParameters, extra: { key?: string; executionId?: string } = {}) =>
	orchestrationNode({ sb, key: extra.key ?? SERVER_KEY, executionId: extra.executionId, parameters });

describe('Webhook > Delete', () => {
	it('deletes an endpoint and a recovery subscription by ID; an unknown ID is not_found', async () => {
		const [hook] = await run(node({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/a' }));
		const webhookId = String(hook.webhookId);
		const [gone] = await run(node({ resource: 'webhook', operation: 'delete', webhookId }));
		expect(gone).toEqual({ webhookId: hook.webhookId, recovery: false, ok: true });
		const [del] = await control(sb).requests({ path: `/v1/webhooks/${hook.webhookId as string}` });
		expect(del).toMatchObject({ method: 'DELETE', status: 200, idempotencyKey: expect.stringMatching(/^n8n-/) });
		const again = await runError(node({ resource: 'webhook', operation: 'delete', webhookId }));
		expect(again.message).toMatch(/^not_found: /);
		const recovery = (await (await fetch(`${sb.orchestrationUrl}/v1/webhooks/recovery`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_KEY}`, 'x-idempotency-key': 'k-recovery-1' },
			body: JSON.stringify({ url: 'https://example.com/hooks/r' }),
		})).json()) as { webhookId: string };
		const [out] = await run(node({ resource: 'webhook', operation: 'delete', webhookId: recovery.webhookId, recovery: true }));
		expect(out).toMatchObject({ recovery: true, ok: true });
	});
});
