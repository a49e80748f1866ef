/**
 * The Orchestration node's description: the public names of its resources and operations (stored
 * workflows keep them), the deprecated legacy resources, and n8n's conventions.
 */
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';

describe('node description', () => {
	const { description } = new Orchestration();
	const options = (name: string, resource?: string) =>
		description.properties
			.filter((p) => p.name === name && (!resource || p.displayOptions?.show?.resource?.includes(resource)))
			.flatMap((p) => (p.options ?? []) as Array<{ value: string; name: string; description?: string }>);

	it('keeps the public names of resources and operations (new ones may be added)', () => {
		expect(description.name).toBe('orchestration');
		expect(options('authentication').map((o) => o.value).sort()).toEqual(['clientKey', 'serverKey']);
		const operations = Object.fromEntries(
			options('resource').map((r) => [r.value, options('operation', r.value).map((o) => o.value).sort()]),
		);
		const kept = {
			accumulationAddress: ['get', 'reindex', 'sync'],
			affiliate: ['claim', 'disable', 'getAll', 'getClaim', 'getClaims', 'getPayoutDestinations', 'upsert'],
			liquidationAddress: ['get', 'getAll'],
			order: ['acceptZeroconfOffer', 'createOnramp', 'declineZeroconfOffer', 'getByQuote', 'getStatus', 'submit'],
			quote: ['create', 'createOfframp', 'estimate'],
			route: ['getAll', 'getLimits'],
			standingAddress: ['createOrGet', 'get', 'getDeposits', 'getDestinations', 'pause', 'resume'],
			webhook: ['create', 'delete'],
		};
		for (const [resource, names] of Object.entries(kept)) expect({ resource, names: operations[resource] }).toEqual({ resource, names: expect.arrayContaining(names) });
	});

	it('marks the legacy resources deprecated and follows n8n conventions', () => {
		for (const legacy of options('resource').filter((r) => /^(accumulation|liquidation)Address$/.test(r.value))) {
			expect(legacy.name).toMatch(/\(Deprecated\)$/);
			expect(legacy.description).toMatch(/standing deposit addresses/);
		}
		for (const op of [...options('operation', 'accumulationAddress'), ...options('operation', 'liquidationAddress')]) {
			expect(op.description).toMatch(/^Deprecated: /);
		}
		const notices = description.properties.filter((p) => p.name === 'deprecationNotice');
		expect(notices.map((n) => n.displayOptions?.show?.resource)).toEqual([['accumulationAddress'], ['liquidationAddress']]);
		for (const n of notices) expect(n).toMatchObject({ type: 'notice', displayName: expect.stringMatching(/use the Standing Deposit Address resource/) });
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toContain('$parameter["operation"]');
		expect(description.icon).toEqual({ light: 'file:../../icons/orchestration.svg', dark: 'file:../../icons/orchestration.dark.svg' });
		expect(description.credentials?.map((c) => [c.name, c.displayOptions?.show?.authentication])).toEqual([
			['orchestrationServerApi', ['serverKey']],
			['orchestrationClientApi', ['clientKey']],
		]);
		const wireNames = description.properties.flatMap((p) => [p.name, ...((p.options ?? []) as Array<{ name: string }>).map((o) => o.name)]);
		for (const name of ['sourceChain', 'sourceAsset', 'destinationChain', 'destinationAsset', 'amount', 'recipientAddress', 'includeCalldata', 'appFees', 'affiliateId', 'amountMode', 'deliveryMode', 'refundAddress', 'refundChain', 'slippageBps', 'affiliateIds', 'additionalFields', 'idempotencyKey', 'amountFormat', 'readToken', 'waitUntilFinal']) {
			expect(wireNames).toContain(name);
		}
	});
});
