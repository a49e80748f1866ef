/**
 * Affiliate > Claim against the sandbox over HTTP: the optional body, {claim} with a readable amount,
 * Wait Until Final until paid, one claim however often n8n retries it, and bad settlement or payout
 * pairs refused before any request.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { Orchestration } from '../../../../nodes/Orchestration/Orchestration.node';
import { TOOL_ACTIONS_OPTION } from '../../../../nodes/n8n/toolMode';
import { executeNodeWithHints } from '../../../harness/n8n';
import { callAsTool } from '../../../harness/tool';
import { control, orchestrationNode, run, runError, SERVER_KEY, startTestSandbox } from '../../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	// timeScale 20: a claim's payout attempt takes 1 s, an order step 150 ms
	sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
	await control(sb).reset();
	await control(sb).config({ autoAdvance: true, claimOutcome: 'paid' });
});

const node = (parameters: INodeParameters, extra: { executionId?: string } = {}) => orchestrationNode({ sb, key: SERVER_KEY, executionId: extra.executionId, parameters });

describe('Affiliate > Claim', () => {
	it('Claim sends the optional body, answers {claim} with a readable amount, and Wait Until Final follows it until paid', async () => {
		await control(sb).accrue('2000000');
		await control(sb).accrue('3500000', 'solana');
		const { output, error, hints } = await executeNodeWithHints(
			node({
				resource: 'affiliate',
				operation: 'claim',
				affiliateId: 'aff_sandbox_alpha',
				waitUntilFinal: true,
				pollIntervalSeconds: 3,
				waitTimeoutSeconds: 30,
				options: { settlementChain: 'solana', settlementAsset: 'USDC', payoutAddress: '0x3333333333333333333333333333333333333333', allowPayoutChange: true },
			}),
			[{ json: {} }],
		);
		expect(error).toBeUndefined();
		const [claim] = output![0].map((i) => i.json);
		expect(claim).toMatchObject({
			id: expect.stringMatching(/^clm_/), amount: '3500000', amountFormatted: '3.5', settlementChain: 'solana', settlementAsset: 'USDC',
			payoutAddress: '0x3333333333333333333333333333333333333333', status: 'completed', txHash: expect.stringMatching(/^0x/), waitEndedBy: 'paid', waitTimedOut: false,
		});
		const [sent] = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claim' });
		expect(sent.body).toEqual({ settlementChain: 'solana', settlementAsset: 'USDC', payoutAddress: '0x3333333333333333333333333333333333333333' });
		const reads = await control(sb).requests({ path: `/v1/affiliates/aff_sandbox_alpha/claims/${String(claim.id)}` });
		expect(reads.length).toBeGreaterThanOrEqual(1);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', message: expect.stringMatching(/^Item 0: claim clm_\S+ was paid \(txHash 0x[0-9a-f]+\) after [\d.]+ s \(polled\)$/) })]);
	}, 30_000);

	it('a plain Claim still sends no body; Retry On Fail replays the first claim', async () => {
		await control(sb).accrue('2500000');
		const claim = () => node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }, { executionId: 'exec-plain-claim' });
		const [first] = await run(claim());
		expect(first).toMatchObject({ affiliateId: 'aff_sandbox_alpha', settlementChain: 'base', amount: '2500000', amountFormatted: '2.5', status: 'processing' });
		expect(first).not.toHaveProperty('waitEndedBy');
		const [retried] = await run(claim());
		expect(retried).toMatchObject({ id: first.id, replayed: true });
		const sent = await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claim' });
		expect(sent.map((r) => r.body)).toEqual([null, null]);
	});

	it('refuses a half settlement or payout pair, a Lightning payout and a bad claim ID before any request', async () => {
		await control(sb).clearRequests();
		const claim = (options: INodeParameters) => node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options });
		expect((await runError(claim({ settlementChain: 'base' }))).message).toBe('Invalid "settlementAsset" in item 0: is required with "settlementChain"');
		expect((await runError(claim({ payoutChain: 'ethereum', payoutAsset: 'USDC' }))).message).toMatch(/^Invalid "payoutAddress" in item 0: is required with "payoutChain"/);
		expect((await runError(claim({ payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'a@b.c' }))).message).toMatch(/^Invalid "payoutChain" in item 0: Lightning/);
		expect((await runError(claim({ payoutAddress: '0x1', additionalFields: '{"payoutAddress": "0x2"}' }))).message).toMatch(/^Invalid "additionalFields" in item 0: sets "payoutAddress"/);
		expect((await runError(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: '..' }))).message).toMatch(/^Invalid "claimId" in item 0/);
		expect(await control(sb).requests()).toEqual([]);
		const missing = await runError(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: 'clm_nope' }));
		expect([missing.message, missing.description]).toEqual([expect.stringMatching(/^not_found: /), expect.stringMatching(/Get Claims lists the claims/)]);
	});
});

describe('Affiliate > Claim pays only where the affiliate is paid, unless a person allows otherwise', () => {
	const OTHER = '0x3333333333333333333333333333333333333333';
	const claimPosts = async () => await control(sb).requests({ path: '/v1/affiliates/aff_sandbox_alpha/claim' });
	const claim = (options: INodeParameters) => ({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', options });

	it('another payout address, in the options or only in Additional Body Fields, is refused naming both destinations', async () => {
		await control(sb).accrue('2000000');
		for (const options of [{ payoutAddress: OTHER }, { additionalFields: JSON.stringify({ payoutAddress: OTHER }) }]) {
			const error = await runError(node(claim(options)));
			expect(error.message).toBe(
				`Affiliate "aff_sandbox_alpha" is paid USDC on base to 0x00000000000000000000000000000000a11ce001 today; this claim would pay USDC on base to ${OTHER} instead (item 0)`,
			);
			expect(error.description).toMatch(/Allow Payout Destination Change/);
		}
		expect(await claimPosts()).toEqual([]);
	});

	it('a raw Lightning payout or an unnamed address member is refused before any request', async () => {
		await control(sb).clearRequests();
		const lightning = await runError(node(claim({ additionalFields: JSON.stringify({ payoutChain: 'lightning', payoutAsset: 'BTC', payoutAddress: 'a@b.c' }) })));
		expect(lightning.message).toMatch(/^Invalid "payoutChain" in item 0: Lightning/);
		const hidden = await runError(node(claim({ additionalFields: JSON.stringify({ payout: { address: OTHER } }) })));
		expect(hidden.message).toMatch(/^Invalid "additionalFields" in item 0: sets "payout", "payout.address", which may say where funds go/);
		expect(await control(sb).requests()).toEqual([]);
	});

	it("the affiliate's own destination needs no option; with the option another one is paid", async () => {
		await control(sb).accrue('2000000');
		const [own] = await run(node(claim({ payoutAddress: '0x00000000000000000000000000000000A11CE001' })));
		expect(own).toMatchObject({ payoutAddress: expect.stringMatching(/a11ce001$/i) });
		await control(sb).accrue('2000000');
		const [other] = await run(node(claim({ payoutAddress: OTHER, allowPayoutChange: true })));
		expect(other).toMatchObject({ payoutAddress: OTHER });
	});

	it('never as an AI-agent tool, even with actions and the option allowed', async () => {
		await control(sb).accrue('2000000');
		const parameters = { authentication: 'serverKey', ...claim({ payoutAddress: OTHER, allowPayoutChange: true }), [TOOL_ACTIONS_OPTION]: true };
		const call = await callAsTool(node(parameters), new Orchestration(), parameters);
		expect(call.error?.message).toMatch(/this claim would pay USDC on base to 0x3333/);
		expect(call.error?.description).toMatch(/An AI agent may never change where affiliate fees are paid/);
		expect(await claimPosts()).toEqual([]);
		// the precondition: as a tool with actions allowed, a claim to the affiliate's own destination runs
		const own = { ...parameters, options: {} };
		expect((await callAsTool(node(own), new Orchestration(), own)).error).toBeUndefined();
	});
});

describe('Affiliate > Claim: once per execution', () => {
	it('pays the balance once per execution, with formatted amounts; Get Claims lists it', async () => {
		await control(sb).accrue('2500000');
		const claim = () => node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }, { executionId: 'exec-claim-1' });
		const [first] = await run(claim());
		expect(first).toMatchObject({ affiliateId: 'aff_sandbox_alpha', settlementChain: 'base', settlementAsset: 'USDC', amount: '2500000', amountFormatted: '2.5', status: 'processing' });
		// n8n's Retry On Fail (same execution, node and item): the same key, the first claim replayed
		const [retried] = await run(claim());
		expect(retried).toMatchObject({ id: first.id, replayed: true });
		const claims = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: true }));
		expect(claims).toEqual([expect.objectContaining({ id: first.id, amountFormatted: '2.5' })]);
		// a new execution finds nothing left to claim
		const nothing = await runError(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }));
		expect(nothing.message).toMatch(/invalid_state/);
	});
});
