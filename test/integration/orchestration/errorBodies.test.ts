/** Error bodies of any shape from the orchestration service: text, status, cut, secrets removed (issue 10). */
import { ERROR_TEXT_CHARS } from '../../../nodes/n8n/errors';
import type { Sandbox } from '../../../sandbox';
import { control, orchestrationNode, runError, SERVER_KEY, serialized, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearFaults());

const affiliates = () => orchestrationNode({ sb, key: SERVER_KEY, client: false, parameters: { resource: 'affiliate', operation: 'getAll' } });

describe('Orchestration node: error bodies of any shape', () => {
	it.each([
		['JSON without error.code', '{"message":"maintenance window"}', 'application/json', 'HTTP 403: maintenance window'],
		['plain text', 'Forbidden by proxy', 'text/plain', 'HTTP 403: Forbidden by proxy'],
		['HTML', '<!doctype html><html><body><h1>403 Forbidden</h1><hr><center>nginx</center></body></html>', 'text/html', 'HTTP 403: 403 Forbidden nginx'],
		['empty', '', 'text/plain', 'HTTP 403 (empty body)'],
	])('%s', async (_name, body, contentType, message) => {
		await control(sb).fault({ path: '/v1/affiliates', mode: 'status', status: 403, body, contentType, times: 'always' });
		const error = await runError(affiliates());
		expect(error.message).toBe(message);
		expect(error.httpCode).toBe('403');
	});

	it('cuts a long body and removes an echoed key, even URL-encoded or partial', async () => {
		const body = `denied ${encodeURIComponent(SERVER_KEY)} / ${SERVER_KEY.slice(0, 14)} ${'y'.repeat(3000)}`;
		await control(sb).fault({ path: '/v1/affiliates', mode: 'status', status: 403, body, times: 'always' });
		const error = await runError(affiliates());
		expect(error.message).toMatch(/^HTTP 403: denied \[redacted\] \/ \[redacted\] y+…$/);
		expect(error.message.length).toBeLessThanOrEqual('HTTP 403: '.length + ERROR_TEXT_CHARS + 1);
		expect(serialized(error)).not.toContain(SERVER_KEY.slice(3, 14));
	});
});
