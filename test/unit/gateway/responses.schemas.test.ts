import {
	ExecuteResponseSchema,
	FINAL_INTENT_STATUSES,
	INTENT_STATUSES,
	IntentStatusSchema,
	isFinalIntentStatus,
	NetworkInfoSchema,
	VerifyResponseSchema,
} from '../../../nodes/shared/gateway';

describe('gateway schemas', () => {
	it('lists the spec §3 statuses and the final ones', () => {
		expect(INTENT_STATUSES).toEqual(['ACCEPTED', 'INCLUDED_PENDING_FINALITY', 'FINALIZED', 'EXPIRED']);
		expect(FINAL_INTENT_STATUSES).toEqual(['FINALIZED', 'EXPIRED']);
		expect(isFinalIntentStatus('EXPIRED')).toBe(true);
		expect(isFinalIntentStatus('ACCEPTED')).toBe(false);
	});

	it('parses network info (§2.3a) and keeps unknown fields', () => {
		const info = NetworkInfoSchema.parse({
			spark: { depositAddress: 'sprt1abc', network: 'regtest' },
			execution: { contractAddress: '0x' + '11'.repeat(20), chainId: 3637 },
			paused: false,
			minDepositSats: 1000,
			newField: 1,
		});
		expect(info.execution.chainId).toBe(3637);
		expect((info as Record<string, unknown>).newField).toBe(1);
		expect(NetworkInfoSchema.safeParse({ spark: {}, execution: {}, paused: 'no' }).success).toBe(false);
	});

	it.each([0, -1, 1.5, 2 ** 53, Number.MAX_VALUE, '1', null])('refuses network info whose execution.chainId is %p', (chainId) => {
		const result = NetworkInfoSchema.safeParse({
			spark: { depositAddress: 'sprt1abc', network: 'regtest' },
			execution: { contractAddress: '0x' + '11'.repeat(20), chainId },
			paused: false,
			minDepositSats: 1000,
		});
		expect(result.success).toBe(false);
		expect(result.error!.issues[0].path).toEqual(['execution', 'chainId']);
	});

	it.each([1, 3637, Number.MAX_SAFE_INTEGER])('accepts chainId %p', (chainId) => {
		const info = { spark: { depositAddress: 'a', network: 'regtest' }, execution: { contractAddress: '0x', chainId }, paused: false, minDepositSats: 0 };
		expect(NetworkInfoSchema.parse(info).execution.chainId).toBe(chainId);
	});

	it('responses are lenient', () => {
		expect(VerifyResponseSchema.parse({ accessToken: 't', expiresIn: 900 })).toMatchObject({ accessToken: 't', expiresIn: 900 });
		expect(ExecuteResponseSchema.parse({ submissionId: 's', intentId: '0x01', status: 'ACCEPTED' }).status).toBe('ACCEPTED');
		const status = IntentStatusSchema.parse({ submissionId: 's', intentId: '0x01', status: 'ACCEPTED', createdAt: 'a', updatedAt: 'b' });
		expect(status.statusMessage).toBeNull();
		expect(status.executionTxHash).toBeNull();
	});
});
