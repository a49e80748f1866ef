/**
 * Webhook > Create against the sandbox over HTTP: the URL registered with an idempotency key, the
 * secret kept out of the output unless asked for, bad URLs refused before any request, client keys
 * refused.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	runError,
	SERVER_KEY,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (parameters: INodeParameters, key = SERVER_KEY) => orchestrationNode({ sb, key, parameters });

describe('Webhook > Create', () => {
	it('registers the URL with an idempotency key and keeps the secret out of the output by default', async () => {
		const [out] = await run(node({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/orders' }));
		expect(out).toMatchObject({ webhookId: expect.any(String), url: 'https://example.com/hooks/orders', secretIssued: true });
		expect(out).not.toHaveProperty('secret');
		expect(JSON.stringify(out)).not.toMatch(/whsec_/);
		const [post] = await control(sb).requests({ path: '/v1/webhooks' });
		expect(post.body).toEqual({ url: 'https://example.com/hooks/orders' });
		expect(post.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
	});

	it('passes the once-shown secret on when "Output Signing Secret" is on', async () => {
		const [out] = await run(
			node({ resource: 'webhook', operation: 'create', url: 'https://example.com/hooks/ledger', options: { outputSecret: true } }),
		);
		expect(out.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
	});

	it('refuses a URL that is not absolute http(s), before any request', async () => {
		const error = await runError(node({ resource: 'webhook', operation: 'create', url: 'example.com/hook' }));
		expect(error.message).toBe('Invalid "url" in item 0: must be an absolute http:// or https:// URL');
		expect(await control(sb).requests()).toEqual([]);
	});

	it('is refused to client keys', async () => {
		const error = await runError(node({ resource: 'webhook', operation: 'create', url: 'https://example.com/h' }, CLIENT_ALL));
		expect(error.message).toMatch(/^forbidden: /);
	});
});
