/**
 * The sandbox's request log (`GET /sandbox/requests`) keeps the last `recordedRequests` answers and
 * says how many it dropped, so a long run can tell a partial count from a full one.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { loadConfig } from '../../sandbox/config';
import { client, SERVER } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true, config: { switches: { recordedRequests: 3 } } });
});
afterAll(() => sb.close());

test('a full log drops the oldest records and counts them', async () => {
	const api = client(sb.orchestrationUrl);
	for (let i = 0; i < 5; i++) expect((await api.call('GET', '/v2/orchestration/routes', undefined, { key: SERVER })).status).toBe(200);
	const log = (await api.call('GET', '/sandbox/requests')).body;
	expect(log.requests).toHaveLength(3);
	expect(log.dropped).toBe(2);
	expect(log.requests.map((r: { seq: number }) => r.seq)).toEqual([3, 4, 5]);
});

test('by default the log keeps 5,000 answers, and a fresh sandbox has dropped none', async () => {
	expect(loadConfig().switches.recordedRequests).toBe(5000);
	const other = await startSandbox({ quiet: true });
	try {
		const log = (await client(other.orchestrationUrl).call('GET', '/sandbox/requests')).body;
		expect(log).toEqual({ requests: [], dropped: 0 });
	} finally {
		await other.close();
	}
});
