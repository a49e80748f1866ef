/**
 * Affiliate > Get Claim against the sandbox over HTTP: one claim, and its wait through retried attempts
 * to paid or failed, or to its timeout.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { executeNodeWithHints } from '../../../harness/n8n';
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

describe('Affiliate > Get Claim', () => {
	it('Get Claim reads one claim; its wait goes on through a retried attempt (errorMessage with nextAttemptAt) until paid', async () => {
		await control(sb).config({ autoAdvance: false });
		await control(sb).accrue('2000000');
		const [claim] = await run(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha' }));
		await control(sb).settleClaim(String(claim.id), 'retry');
		const [read] = await run(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: claim.id as string }));
		expect(read).toMatchObject({ id: claim.id, status: 'processing', errorMessage: expect.stringMatching(/retrying/), nextAttemptAt: expect.any(String), amountFormatted: '2' });
		const waiting = executeNodeWithHints(
			node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: claim.id as string, waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 30 }),
			[{ json: {} }],
		);
		await new Promise((r) => setTimeout(r, 1000));
		await control(sb).settleClaim(String(claim.id), 'paid');
		const { output, error } = await waiting;
		expect(error).toBeUndefined();
		expect(output![0][0].json).toMatchObject({ id: claim.id, status: 'completed', txHash: expect.any(String), attempts: 2, waitEndedBy: 'paid' });
	}, 30_000);

	it('a failed claim ends the wait as failed (the item carries it); a claim still processing at the timeout fails the item or returns its last state', async () => {
		await control(sb).config({ claimOutcome: 'failed' });
		await control(sb).accrue('2000000');
		const { output, hints } = await executeNodeWithHints(
			node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 30 }),
			[{ json: {} }],
		);
		expect(output![0][0].json).toMatchObject({ status: 'failed', txHash: null, errorMessage: expect.any(String), waitEndedBy: 'failed', waitTimedOut: false });
		expect(hints[0]).toMatchObject({ type: 'warning', message: expect.stringMatching(/claim clm_\S+ failed \(the payout transfer was rejected/) });

		await control(sb).config({ autoAdvance: false });
		const wait = { waitUntilFinal: true, pollIntervalSeconds: 3, waitTimeoutSeconds: 3 };
		const error = await runError(node({ resource: 'affiliate', operation: 'claim', affiliateId: 'aff_sandbox_alpha', ...wait }));
		expect(error.message).toMatch(/^Claim clm_\S+ is still "processing" after waiting 3 s \(wait timeout\): it is not paid yet \(item 0\)$/);
		const [claims] = await run(node({ resource: 'affiliate', operation: 'getClaims', affiliateId: 'aff_sandbox_alpha', returnAll: false, limit: 1 }));
		const [last] = await run(node({ resource: 'affiliate', operation: 'getClaim', affiliateId: 'aff_sandbox_alpha', claimId: claims.id as string, ...wait, onTimeout: 'returnLastState' }));
		expect(last).toMatchObject({ id: claims.id, status: 'processing', waitEndedBy: 'timeout', waitTimedOut: true });
	}, 30_000);
});
