/**
 * One reading of X-Idempotency-Replayed (public-notes: `true` on an answer the service replays from
 * its idempotency store) for every operation that reports `replayed`: the value in any case, as a
 * service or a proxy may write it. A service that answers here by hand, so the header is the test's.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../../sandbox';
import { HostileService } from '../../harness/hostileService';
import { orchestrationNode, run, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
let service: HostileService;
let baseUrl: string;
beforeAll(async () => {
	// The harness wants a sandbox for its credentials; the requests go to the hand-written service.
	sb = await startTestSandbox();
	service = new HostileService();
	baseUrl = await service.listen();
});
afterAll(async () => {
	await service.close();
	await sb.close();
});

/** Answers `method path` with `body` and the header written as `replayed`. */
function answer(method: string, path: string, body: IDataObject, replayed: string): void {
	service.routes.set(`${method} ${path}`, (req, res) => {
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json', 'x-idempotency-replayed': replayed }).end(JSON.stringify(body));
	});
}

describe.each(['true', 'TRUE', 'True'])('X-Idempotency-Replayed: %s', (header) => {
	it('Affiliate > Claim reports replayed', async () => {
		answer('POST', '/v1/affiliates/aff_1/claim', { claim: { id: 'clm_1', status: 'processing' } }, header);
		const [out] = await run(orchestrationNode({ sb, baseUrl, parameters: { resource: 'affiliate', operation: 'claim', affiliateId: 'aff_1' } }));
		expect(out).toMatchObject({ id: 'clm_1', replayed: true });
	});

	it('Standing Deposit Address > Pause reports replayed', async () => {
		answer('PATCH', '/v1/standing-deposit-addresses/ref-1/enabled', { standingAddressId: 'sda_1', enabled: false }, header);
		const [out] = await run(orchestrationNode({ sb, baseUrl, parameters: { resource: 'standingAddress', operation: 'pause', reference: 'ref-1' } }));
		expect(out).toMatchObject({ reference: 'ref-1', enabled: false, replayed: true });
	});

	it('Order > Accept ZeroConf Offer reports replayed', async () => {
		answer('POST', '/v1/orchestration/zeroconf/accept', { orderId: 'ord_1', status: 'processing' }, header);
		const [out] = await run(orchestrationNode({ sb, baseUrl, parameters: { resource: 'order', operation: 'acceptZeroconfOffer', orderId: 'ord_1' } }));
		expect(out).toMatchObject({ orderId: 'ord_1', decision: 'accepted', replayed: true });
	});
});

it('an answer without the header is not replayed', async () => {
	service.routes.set('POST /v1/orchestration/zeroconf/accept', (req, res) => {
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ orderId: 'ord_1', status: 'processing' }));
	});
	const [out] = await run(orchestrationNode({ sb, baseUrl, parameters: { resource: 'order', operation: 'acceptZeroconfOffer', orderId: 'ord_1' } }));
	expect(out).toMatchObject({ orderId: 'ord_1', replayed: false });
});
