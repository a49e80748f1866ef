/**
 * Quote > Estimate against the sandbox over HTTP: an answer without a deposit address, with
 * formatted amounts, for server and client keys.
 */
import type { Sandbox } from '../../../../sandbox';
import {
	CLIENT_ALL,
	control,
	orchestrationNode,
	quoteParams,
	run,
	SERVER_KEY,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

describe('Quote > Estimate', () => {
	it('answers without a deposit address, with formatted amounts, for server and client keys', async () => {
		for (const key of [SERVER_KEY, CLIENT_ALL]) {
			const [out] = await run(
				orchestrationNode({
					sb,
					key,
					parameters: { ...quoteParams({ amountFormat: 'decimal', amount: '100' }), operation: 'estimate' },
				}),
			);
			expect(out).toMatchObject({ amountIn: '100000000', amountInFormatted: '100', estimatedOut: '99700', estimatedOutFormatted: '0.000997' });
			expect(out.depositAddress).toBeUndefined();
		}
		const gets = await control(sb).requests({ path: '/v1/orchestration/estimate' });
		expect(gets.map((g) => [g.method, g.query.amount, g.idempotencyKey])).toEqual([
			['GET', '100000000', null],
			['GET', '100000000', null],
		]);
	});
});
