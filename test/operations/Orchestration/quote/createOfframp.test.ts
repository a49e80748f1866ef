/**
 * Quote > Create Offramp against the sandbox over HTTP: a payout to a $username or a Lightning
 * address, for server and client keys; any other recipient refused before sending.
 */
import type { Sandbox } from '../../../../sandbox';
import {
	ADDR,
	CLIENT_ALL,
	control,
	orchestrationNode,
	run,
	runError,
	startTestSandbox,
} from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

describe('Quote > Create Offramp', () => {
	const offramp = (overrides: Record<string, unknown> = {}) => ({
		resource: 'quote',
		operation: 'createOfframp',
		sourceChain: 'base',
		sourceAsset: 'USDC',
		amountFormat: 'decimal',
		amount: '50',
		recipientAddress: '$alice',
		// public-notes: an offramp pays over Lightning, a destination that needs a refund address
		options: { refundAddress: ADDR.evm },
		...overrides,
	});

	it('quotes a payout to a $username or a Lightning address, for server and client keys', async () => {
		const [server] = await run(orchestrationNode({ sb, parameters: offramp() }));
		expect(server).toMatchObject({ amountIn: '50000000', amountInFormatted: '50', depositMemoRequired: false });
		expect(server.estimatedOutFormatted).toBe(
			String(Number(server.estimatedOut) / 1e8).replace(/0+$/, ''), // lightning:BTC has 8 decimals
		);
		const [client] = await run(orchestrationNode({ sb, key: CLIENT_ALL, parameters: offramp({ recipientAddress: 'alice@wallet.example' }) }));
		expect(client.readToken).toEqual(expect.any(String));
		const posts = await control(sb).requests({ path: '/v1/orchestration/offramp' });
		expect(posts).toHaveLength(2);
		expect(posts.every((p) => /^n8n-[0-9a-f]{64}$/.test(p.idempotencyKey))).toBe(true);
	});

	it('refuses a recipient that is neither a $username nor a Lightning address', async () => {
		const error = await runError(orchestrationNode({ sb, parameters: offramp({ recipientAddress: ADDR.evm }) }));
		expect(error.message).toMatch(/^Invalid "recipientAddress" in item 0: must be a payment-app \$username or a Lightning address/);
		expect(await control(sb).requests()).toEqual([]);
	});
});
