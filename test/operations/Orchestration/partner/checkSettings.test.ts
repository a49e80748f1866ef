/**
 * Partner > Check Settings in n8n's own execution context: a flow's settings that still point at
 * the sandbox stop it when the credential reaches the live service; against the sandbox they pass.
 * It sends nothing: the sandbox sees no request either way.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

/** A live-looking base URL: https, not loopback (nothing is sent to it). */
const LIVE = 'https://api.orchestration.example.com';
/** The settings of example 2 as shipped, with the event the trigger passed on. */
const SHIPPED = { orderLinkBase: 'http://127.0.0.1:8787/sandbox/orders/', channel: '#payouts', event: 'order.completed', data: { id: 'ord_1' } };

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

const node = (baseUrl: string | undefined, parameters: INodeParameters = {}) =>
	orchestrationNode({ sb, key: SERVER_KEY, baseUrl, parameters: { resource: 'partner', operation: 'checkSettings', ...parameters } });
const input = (json: IDataObject) => [{ json }];

describe('Partner > Check Settings', () => {
	it('a sandbox URL against a live credential fails the item, naming the setting, its value and the live service', async () => {
		const error = await runError(node(LIVE), input(SHIPPED));
		expect(error.message).toBe(
			`orderLinkBase points at the sandbox (http://127.0.0.1:8787/sandbox/orders/) while this credential reaches the live service (${LIVE}): change it in the Settings node`,
		);
		expect(error.description).toMatch(/^Settings that point at the sandbox: orderLinkBase\..*Nothing was sent to the service\.$/);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('the same settings against the sandbox credential pass on the item with serviceEnvironment "test"', async () => {
		expect(await run(node(undefined), input(SHIPPED))).toEqual([{ ...SHIPPED, serviceEnvironment: 'test' }]);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('live settings against a live credential pass on the item with serviceEnvironment "live"', async () => {
		const live = { orderLinkBase: 'https://app.example.com/orders/', walletUrl: 'https://custody.example.com/v1/transfers', channel: '#payouts' };
		expect(await run(node(LIVE), input(live))).toEqual([{ ...live, serviceEnvironment: 'live' }]);
	});

	it('checks the Settings parameter when it names other values than the item', async () => {
		const error = await runError(node(LIVE, { settings: '={{ { walletUrl: "http://localhost:9000/pay?token=secret-t0ken" } }}' }), input({ orderLinkBase: 'https://app.example.com/orders/' }));
		expect(error.message).toMatch(/^walletUrl points at the sandbox \(http:\/\/localhost:9000\/pay\) while/);
		expect(JSON.stringify(error)).not.toContain('secret-t0ken');
	});

	it('a Settings value that is not a JSON object is refused, naming the field and the item', async () => {
		const error = await runError(node(LIVE, { settings: '[1, 2]' }), input({}));
		expect(error.message).toMatch(/^Invalid "settings" in item 0: must be a JSON object/);
	});

	it('with Continue On Fail, the item that fails is reported and the others go on', async () => {
		const h = orchestrationNode({ sb, key: SERVER_KEY, baseUrl: LIVE, continueOnFail: true, parameters: { resource: 'partner', operation: 'checkSettings' } });
		const out = await run(h, [{ json: { orderLinkBase: 'https://app.example.com/o/' } }, { json: SHIPPED }]);
		expect(out[0]).toMatchObject({ serviceEnvironment: 'live' });
		expect(String(out[1].error)).toMatch(/^orderLinkBase points at the sandbox/);
	});
});
