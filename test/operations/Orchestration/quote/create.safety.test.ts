/**
 * Quote > Create never hands on a quote that cannot be paid (issue 22): replayed answers are marked,
 * an expired replay fails with the next step or is re-quoted under a derived key, and the refund rule
 * of the live service is checked before any request. Over HTTP against the sandbox, whose clock the
 * test skews so a stored quote can expire on the wall clock.
 */
import { SandboxClock } from '../../../../sandbox/clock';
import type { Sandbox } from '../../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run, runError, startTestSandbox } from '../../../harness/orchestration';

/** The sandbox's wall clock, shifted by `skewMs`: quotes it prices now expire `skewMs` earlier for the node. */
class SkewedClock extends SandboxClock {
	skewMs = 0;
	now(): number {
		return Date.now() + this.skewMs;
	}
}

const clock = new SkewedClock(1);
let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ clock });
});
afterAll(() => sb.close());
beforeEach(async () => {
	clock.skewMs = 0;
	await control(sb).clearRequests();
});

const quotePosts = async () => await control(sb).requests({ path: '/v1/orchestration/quote', method: 'POST' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A quote under `key` that the sandbox stores with one second of life left. */
async function almostExpiredQuote(key: string) {
	clock.skewMs = -119_000;
	const params = quoteParams({ options: { idempotencyKey: key, expiryMarginSeconds: 0 } });
	const [first] = await run(orchestrationNode({ sb, executionId: `exec-${key}-0`, parameters: params }));
	clock.skewMs = 0;
	await sleep(1_100);
	return first;
}

describe('replayed answers (public-notes: X-Idempotency-Replayed: true)', () => {
	it('are marked replayed: true; first answers replayed: false', async () => {
		const h = orchestrationNode({ sb, executionId: 'exec-replay', parameters: quoteParams() });
		const [first] = await run(h);
		const [again] = await run(h);
		expect(first.replayed).toBe(false);
		expect(again).toMatchObject({ quoteId: first.quoteId, replayed: true });
		expect((await quotePosts()).map((p) => p.replayed)).toEqual([false, true]);
	});
});

describe('an expired quote is never returned as payable', () => {
	it('a replayed, expired quote fails the item with the next step (a new key)', async () => {
		const first = await almostExpiredQuote('payout-expired-1');
		const params = quoteParams({ options: { idempotencyKey: 'payout-expired-1' } });
		const error = await runError(orchestrationNode({ sb, executionId: 'exec-expired-1', parameters: params }));
		expect(error.message).toMatch(
			new RegExp(`^Quote ${first.quoteId as string} expired at .* s ago\\): the service replayed an earlier answer to this idempotency key, so its deposit address must not be paid \\(item 0\\)$`),
		);
		expect(error.description).toMatch(/new Idempotency Key/);
		expect((error as { errorCode?: string }).errorCode).toBe('quote_expired');
	});

	it('continue on fail gives an error item with code quote_expired, not a quote', async () => {
		await almostExpiredQuote('payout-expired-2');
		const params = quoteParams({ options: { idempotencyKey: 'payout-expired-2' } });
		const [out] = await run(orchestrationNode({ sb, continueOnFail: true, parameters: params }));
		expect(out).toMatchObject({ errorCode: 'quote_expired' });
		expect(out.depositAddress).toBeUndefined();
	});

	it('by option, is re-quoted under a key derived from the old one; a retry of the execution replays the new quote', async () => {
		const first = await almostExpiredQuote('payout-expired-3');
		await control(sb).clearRequests();
		const params = quoteParams({ options: { idempotencyKey: 'payout-expired-3', requoteWhenExpired: true } });
		const h = orchestrationNode({ sb, executionId: 'exec-requote', parameters: params });
		const [requoted] = await run(h);
		expect(requoted).toMatchObject({ replayed: false, requotedFrom: first.quoteId });
		expect(requoted.quoteId).not.toBe(first.quoteId);
		expect(requoted.secondsUntilExpiry).toBeGreaterThan(100);
		const [retried] = await run(h);
		expect(retried).toMatchObject({ quoteId: requoted.quoteId, replayed: true, requotedFrom: first.quoteId });
		const posts = await quotePosts();
		expect(posts.map((p) => [p.idempotencyKey === 'payout-expired-3', p.replayed])).toEqual([
			[true, true],
			[false, false],
			[true, true],
			[false, true],
		]);
		expect(posts[1].idempotencyKey).toMatch(/^n8n-requote-[0-9a-f]{64}$/);
		expect(posts[3].idempotencyKey).toBe(posts[1].idempotencyKey);
		expect(posts[1].body).toEqual(posts[0].body);
	});

	it('a fresh quote with less life than the margin fails and is not re-quoted (a new key would give the same)', async () => {
		clock.skewMs = -115_000;
		const params = quoteParams({ options: { expiryMarginSeconds: 30, requoteWhenExpired: true } });
		const error = await runError(orchestrationNode({ sb, parameters: params }));
		expect(error.message).toMatch(/expires at .*, in \d s, less than the margin of 30 s/);
		expect(await quotePosts()).toHaveLength(1);
	});

	it('a margin outside 0..90 s is refused before any request', async () => {
		const error = await runError(orchestrationNode({ sb, parameters: quoteParams({ options: { expiryMarginSeconds: 120 } }) }));
		expect(error.message).toMatch(/^Invalid "expiryMarginSeconds" in item 0: must be 0 to 90 seconds/);
		expect(await control(sb).requests()).toEqual([]);
	});
});

describe('refund address and chain, checked before sending (public-notes: the live service requires them)', () => {
	const toLightning = (extra: Record<string, unknown> = {}) =>
		quoteParams({ destinationChain: 'lightning', destinationAsset: 'BTC', recipientAddress: 'alice@example.com', ...extra });

	it('a Lightning destination or Exact Out without a refund address is refused, nothing sent', async () => {
		const error = await runError(orchestrationNode({ sb, parameters: toLightning() }));
		expect(error.message).toMatch(/^Invalid "refundAddress" in item 0: is required for Lightning destinations: give an address on the source chain \(base\)/);
		const exactOut = quoteParams({ amountMode: 'exact_out', amount: '100000', destinationAsset: 'BTC' });
		expect((await runError(orchestrationNode({ sb, parameters: exactOut }))).message).toMatch(/^Invalid "refundAddress" in item 0: is required for Exact Out/);
		expect(await control(sb).requests()).toEqual([]);
	});

	it('version 3 reads it at the top level and sends the source chain as refund chain', async () => {
		const h = orchestrationNode({ sb, parameters: toLightning({ refundAddress: ADDR.evm }) });
		expect(h.node.typeVersion).toBe(3);
		await run(h);
		const [post] = await quotePosts();
		expect(post.body).toMatchObject({ refundAddress: ADDR.evm, refundChain: 'base' });
	});

	it('version 2 keeps it under Options; another refund chain than the source is refused', async () => {
		await run(orchestrationNode({ sb, typeVersion: 2, parameters: toLightning({ options: { refundAddress: ADDR.evm } }) }));
		expect((await quotePosts())[0].body).toMatchObject({ refundAddress: ADDR.evm, refundChain: 'base' });
		await control(sb).clearRequests();
		const wrong = toLightning({ refundAddress: ADDR.evm, options: { refundChain: 'ethereum' } });
		expect((await runError(orchestrationNode({ sb, parameters: wrong }))).message).toMatch(/^Invalid "refundChain" in item 0: must be the source chain \(base\)/);
		expect(await control(sb).requests()).toEqual([]);
	});
});
