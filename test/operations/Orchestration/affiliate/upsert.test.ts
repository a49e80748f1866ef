/**
 * Affiliate > Create or Update against the sandbox over HTTP: a payout destination change is explicit
 * (refused naming both destinations unless allowed), bad payout chains, fees and IDs refused before
 * any request.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Sandbox } from '../../../../sandbox';
import { Orchestration } from '../../../../nodes/Orchestration/Orchestration.node';
import { TOOL_ACTIONS_OPTION } from '../../../../nodes/n8n/toolMode';
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

describe('Affiliate > Create or Update: a payout destination change is explicit', () => {
	const OLD = '0x2222222222222222222222222222222222222222';
	const NEW = '0x4444444444444444444444444444444444444444';
	const upsert = (payoutAddress: string, options: INodeParameters = {}, payoutAsset = 'USDC') =>
		node({ resource: 'affiliate', operation: 'upsert', affiliateId: 'aff_payee', feeBps: 30, payoutChain: 'base', payoutAsset, payoutAddress, options });

	it('creates, updates the fee with the same destination (any letter case of an EVM address), and refuses a new one naming both', async () => {
		expect((await run(upsert(OLD)))[0]).toMatchObject({ affiliateId: 'aff_payee', payoutAddress: OLD });
		expect((await run(upsert(OLD.toUpperCase().replace('0X', '0x'))))[0]).not.toHaveProperty('previousPayout');
		await control(sb).clearRequests();
		const error = await runError(upsert(NEW));
		expect(error.message).toBe(`Affiliate "aff_payee" is paid USDC on base to ${OLD.toUpperCase().replace('0X', '0x')} today; this update would pay its claims USDC on base to ${NEW} instead (item 0)`);
		expect(error.description).toMatch(/turn on "Allow Payout Destination Change"/);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
		// another asset of the same chain (one the routes listing offers there: an unlisted one is refused before this check)
		expect((await runError(upsert(OLD.toUpperCase().replace('0X', '0x'), {}, 'DAI'))).message).toMatch(/would pay its claims DAI on base/);
	});

	it('goes through with "Allow Payout Destination Change" and says what it replaced; a disabled affiliate is compared too', async () => {
		await run(upsert(OLD));
		const [changed] = await run(upsert(NEW, { allowPayoutChange: true }));
		expect(changed).toMatchObject({ payoutAddress: NEW, previousPayout: { payoutChain: 'base', payoutAsset: 'USDC', payoutAddress: OLD } });
		await run(node({ resource: 'affiliate', operation: 'disable', affiliateId: 'aff_payee' }));
		expect((await runError(upsert(OLD))).message).toMatch(/is paid USDC on base to 0x4444/);
	});

	it('never as an AI-agent tool, even with actions and the option allowed', async () => {
		await run(upsert(OLD));
		await control(sb).clearRequests();
		const parameters = { ...upsert(NEW).node.parameters, options: { allowPayoutChange: true }, [TOOL_ACTIONS_OPTION]: true };
		const call = await callAsTool(node(parameters), new Orchestration(), parameters);
		expect(call.error?.message).toMatch(/this update would pay its claims USDC on base to 0x4444/);
		expect(call.error?.description).toMatch(/An AI agent may never change where affiliate fees are paid/);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
	});
});

describe('Affiliate > Create or Update: checks before any request', () => {
	const upsert = (affiliateId: string, feeBps: number, payoutChain = 'base') =>
		node({ resource: 'affiliate', operation: 'upsert', affiliateId, feeBps, payoutChain, payoutAsset: 'USDC', payoutAddress: '0x2222222222222222222222222222222222222222' });

	it('refuses a Lightning payout, a fee of 10,000 bps and a bad ID before any request', async () => {
		expect((await runError(upsert('aff_ln', 10, 'lightning'))).message).toMatch(/^Invalid "payoutChain" in item 0: Lightning cannot receive/);
		expect((await runError(upsert('aff_big', 10000))).message).toMatch(/^Invalid "feeBps" in item 0: 10000 is out of range/);
		expect((await runError(upsert('../x', 10))).message).toMatch(/^Invalid "affiliateId" in item 0/);
		expect((await control(sb).requests()).filter((r) => r.method === 'PUT')).toEqual([]);
	});
});
