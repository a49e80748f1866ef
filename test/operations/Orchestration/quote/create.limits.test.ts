/**
 * Quote > Create and the route's bounds (public-notes: amount_too_small / amount_too_large, and the
 * bounds GET /v1/orchestration/limits reports): a refusal names the bounds; with "Check Limits
 * Before Sending" an amount outside them fails its item without a quote, one read of the limits per run.
 */
import type { Sandbox } from '../../../../sandbox';
import { control, items, orchestrationNode, quoteParams, run, runError, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

// base:USDC -> bitcoin:BTC takes 1 to 1,000,000 USDC exact in (the sandbox's /limits)
const quote = (amount: string, options = {}) => orchestrationNode({ sb, parameters: quoteParams({ amountFormat: 'decimal', amount, options }) });

describe('the route\'s bounds', () => {
	it('the service\'s amount_too_small names them, from the limits listing', async () => {
		const error = await runError(quote('0.5'));
		expect(error.message).toMatch(/^amount_too_small: /);
		expect(error.description).toContain('This route takes from 1 base:USDC to 1000000 base:USDC (Route > Get Limits).');
		// precondition: the quote was sent and refused by the service, then the limits were read
		expect((await control(sb).requests({ path: '/v1/orchestration/quote' })).map((r) => r.status)).toEqual([400]);
		expect(await control(sb).requests({ path: '/v1/orchestration/limits' })).toHaveLength(1);
	});

	it('with Check Limits Before Sending: items outside fail before their quote, items inside are quoted, one read of the limits', async () => {
		const h = orchestrationNode({ sb, continueOnFail: true, parameters: quoteParams({ amountFormat: 'decimal', amount: '={{ $json.amount }}', options: { checkLimits: true } }) });
		const out = await run(h, items(3, (n) => ({ amount: ['0.5', '25', '2000000'][n] })));
		expect(out.map((o) => o.errorCode ?? 'quoted')).toEqual(['amount_too_small', 'quoted', 'amount_too_large']);
		expect(out[0].error).toBe('Amount: 0.5 base:USDC is below the route\'s minimum of 1 base:USDC (item 0)');
		expect(out[2].description).toMatch(/^Nothing was sent: the service would refuse it \(amount_too_large\)\. This route takes from 1 base:USDC to 1000000 base:USDC/);
		expect((await control(sb).requests({ path: '/v1/orchestration/quote' })).map((r) => r.body.amount)).toEqual(['25000000']);
		expect(await control(sb).requests({ path: '/v1/orchestration/limits' })).toHaveLength(1);
	});
});
