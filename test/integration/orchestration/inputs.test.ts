/* eslint-disable @typescript-eslint/no-explicit-any -- sandbox answers are arbitrary JSON asserted field by field */
/**
 * Exact inputs from every source (issue 10) and the input rules of the security review (issue 14,
 * points 5 and 9), over HTTP against the sandbox: what an expression produces (numbers, objects,
 * booleans) is either sent exactly or refused before any request, naming the field and the item.
 */
import type { INodeParameters } from 'n8n-workflow';
import { Orchestration } from '../../../nodes/Orchestration/Orchestration.node';
import type { Sandbox } from '../../../sandbox';
import { ADDR, control, orchestrationNode, quoteParams, run, runError, startTestSandbox } from '../../harness/orchestration';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startTestSandbox({ config: { switches: { autoAdvance: false } } });
});
afterAll(() => sb.close());
beforeEach(() => control(sb).clearRequests());

/** 1.234567890123456789 ETH on Base: 19 significant digits in smallest units (18 decimals). */
const ETH_QUOTE = { sourceChain: 'base', sourceAsset: 'ETH' };
const EXACT = '1234567890123456789';

async function refused(parameters: INodeParameters, message: RegExp | string, typeVersion?: number): Promise<void> {
	const error = await runError(orchestrationNode({ sb, parameters, typeVersion }));
	if (typeof message === 'string') expect(error.message).toBe(message);
	else expect(error.message).toMatch(message);
	expect(await control(sb).requests()).toEqual([]);
}

async function sentBody(path: string): Promise<any> {
	const [request] = await control(sb).requests({ path });
	return request.method === 'GET' ? request.query : request.body;
}

describe('amounts from expressions: exact or refused', () => {
	it('{{ 1234567890123456789 }} (a JS number, already rounded) is refused, saying to pass a string', async () => {
		await refused(
			quoteParams({ ...ETH_QUOTE, amount: '={{ 1234567890123456789 }}' }),
			/^Invalid "amount" in item 0: 1234567890123456800 is a JS number above 9007199254740991 \(2\^53 - 1\).*pass it as a string/,
		);
	});

	it('"1234567890123456789" as text goes out exactly', async () => {
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams({ ...ETH_QUOTE, amount: `={{ "${EXACT}" }}` }) }));
		expect((await sentBody('/v1/orchestration/quote')).amount).toBe(EXACT);
		expect(out.amountIn).toBe(EXACT);
		expect(out.amountInFormatted).toBe('1.234567890123456789');
	});

	it('a safe-integer number is sent as its exact digits', async () => {
		await run(orchestrationNode({ sb, parameters: quoteParams({ amount: '={{ 100000000 }}' }) }));
		expect((await sentBody('/v1/orchestration/quote')).amount).toBe('100000000');
	});

	it('Decimal: an exact decimal number is converted exactly; 0.1 + 0.2, 1e21 and fractions of smallest units are refused', async () => {
		await run(orchestrationNode({ sb, parameters: quoteParams({ amountFormat: 'decimal', sourceAsset: 'USDC', amount: '={{ 125.5 }}' }) }));
		expect((await sentBody('/v1/orchestration/quote')).amount).toBe('125500000');
		await control(sb).clearRequests();
		await refused(quoteParams({ amountFormat: 'decimal', amount: '={{ 0.1 + 0.2 }}' }), /^Invalid "amount" in item 0: 0\.30000000000000004 is a JS number that does not hold this decimal exactly/);
		await refused(quoteParams({ amountFormat: 'decimal', amount: '={{ 1e21 }}' }), /^Invalid "amount" in item 0: 1e\+21 is a JS number above/);
		await refused(quoteParams({ amount: '={{ 1.5 }}' }), /^Invalid "amount" in item 0: 1\.5 is not a whole number; smallest units are whole/);
		await refused(quoteParams({ amount: '={{ -5 }}' }), /^Invalid "amount" in item 0: -5 is negative/);
	});

	it('objects, arrays and booleans are refused as amounts', async () => {
		await refused(quoteParams({ amount: '={{ { value: 1 } }}' }), /^Invalid "amount" in item 0: got an object; pass the amount as a string of digits/);
		await refused(quoteParams({ amount: '={{ [1] }}' }), /^Invalid "amount" in item 0: got an array/);
		await refused(quoteParams({ amount: '={{ true }}' }), /^Invalid "amount" in item 0: got a boolean/);
	});

	it('estimate, offramp and onramp (sats and USD) apply the same rule', async () => {
		const estimate = { ...quoteParams({ ...ETH_QUOTE, amount: '={{ 1234567890123456789 }}' }), operation: 'estimate' };
		await refused(estimate, /^Invalid "amount" in item 0: 1234567890123456800 is a JS number/);
		const offramp = {
			resource: 'quote', operation: 'createOfframp', sourceChain: 'base', sourceAsset: 'ETH',
			amountFormat: 'smallestUnit', amount: '={{ 1234567890123456789 }}', recipientAddress: '$alice', options: { refundAddress: ADDR.evm },
		};
		await refused(offramp, /^Invalid "amount" in item 0: 1234567890123456800 is a JS number/);
		const onramp = {
			resource: 'order', operation: 'createOnramp', destinationChain: 'base', destinationAsset: 'USDC',
			recipientAddress: ADDR.evm, amountFormat: 'smallestUnit', amount: '={{ 12345678901234567 }}',
		};
		await refused(onramp, /^Invalid "amount" in item 0: 12345678901234568 is a JS number above/);
		const usd = { ...onramp, amountType: 'amountFiatUsd', amountFiatUsd: '={{ 0.1 + 0.2 }}' };
		await refused(usd, /^Invalid "amountFiatUsd" in item 0: 0\.30000000000000004 is a JS number that does not hold/);
		await run(orchestrationNode({ sb, parameters: { ...usd, amountFiatUsd: '={{ 25.5 }}' } }));
		expect((await sentBody('/v1/orchestration/onramp')).amountFiatUsd).toBe('25.5');
	});

	it('a 100 KB amount is refused at once by its length', async () => {
		await refused(quoteParams({ amount: '1'.repeat(100_000) }), 'Invalid "amount" in item 0: is 100000 characters long; at most 100 are allowed');
	});
});

describe('integers (bps, output index): no silent truncation or rounding', () => {
	it.each([
		['={{ 12.7 }}', /^Invalid "slippageBps" in item 0: 12\.7 is not a whole number \(nothing is rounded\)/],
		['1e2', /^Invalid "slippageBps" in item 0: "1e2" must be a whole number, digits only/],
		['0x10', /^Invalid "slippageBps" in item 0: "0x10" must be a whole number/],
		['={{ 2 ** 60 }}', /^Invalid "slippageBps" in item 0: 1152921504606847000 is a JS number above 9007199254740991 \(2\^53 - 1\) and not exact/],
	])('slippageBps %s is refused', async (value, message) => {
		await refused(quoteParams({ options: { slippageBps: value } }), message);
	});

	it('digits as text are an integer', async () => {
		await run(orchestrationNode({ sb, parameters: quoteParams({ options: { slippageBps: '={{ "75" }}' } }) }));
		expect((await sentBody('/v1/orchestration/quote')).slippageBps).toBe(75);
	});

	it('an app fee of 12.5 bps and an affiliate override of "1.5" are refused, naming the entry', async () => {
		await refused(
			quoteParams({ options: { appFees: { fee: [{ recipient: ADDR.evm, feeBps: 12.5 }] } } }),
			/^Invalid "appFees\[0\]\.feeBps" in item 0: 12\.5 is not a whole number/,
		);
		await refused(
			quoteParams({ options: { affiliateIds: { affiliate: [{ affiliateId: 'aff_alpha', feeBps: '1.5' }] } } }),
			/^Invalid "affiliateIds\[0\]\.feeBps" in item 0: "1.5" must be a whole number/,
		);
	});

	it('bitcoinVout 1.5 is refused', async () => {
		const params = { resource: 'order', operation: 'submit', quoteId: 'q_1', sourceReference: 'bitcoinTxid', bitcoinTxid: 'ab'.repeat(32), bitcoinVout: '={{ 1.5 }}' };
		await refused(params, /^Invalid "bitcoinVout" in item 0: 1\.5 is not a whole number/);
	});
});

describe('text parameters refuse objects, arrays and booleans instead of sending "[object Object]"', () => {
	it.each([
		['recipientAddress', quoteParams({ recipientAddress: '={{ { address: "x" } }}' }), 'an object'],
		['quoteId', { resource: 'order', operation: 'submit', quoteId: '={{ ["q_1"] }}', txHash: '0x01' }, 'an array'],
		['txHash', { resource: 'order', operation: 'submit', quoteId: 'q_1', txHash: '={{ true }}' }, 'a boolean'],
		['id', { resource: 'order', operation: 'getStatus', id: '={{ { id: 1 } }}' }, 'an object'],
		['refundAddress', quoteParams({ refundAddress: '={{ {} }}' }), 'an object'],
		['accumulationAddressId', { resource: 'accumulationAddress', operation: 'get', accumulationAddressId: '={{ {} }}' }, 'an object'],
	])('%s', async (field, parameters, kind) => {
		await refused(parameters as INodeParameters, `Invalid "${field}" in item 0: must be text, got ${kind}; pass a string (an expression must resolve to text)`);
	});

	it('a safe-integer id from a sheet is its digits', async () => {
		const h = orchestrationNode({ sb, continueOnFail: true, parameters: { resource: 'order', operation: 'getStatus', id: '={{ 12345 }}' } });
		await run(h);
		expect((await control(sb).requests({ path: '/v1/orchestration/status' }))[0].query).toEqual({ id: '12345' });
	});
});

describe('Amount Format: Decimal by default for new nodes, smallest units kept for version 1', () => {
	const noFormat = (amount: string) => {
		const { amountFormat: _omit, ...rest } = quoteParams({ sourceAsset: 'USDC', amount });
		return rest;
	};

	it('version 2 on (3, the default for new nodes) reads 125.5 as decimal USDC', async () => {
		const h = orchestrationNode({ sb, parameters: noFormat('125.5') });
		expect(h.node.typeVersion).toBe(3);
		expect(h.node.parameters.amountFormat).toBe('decimal');
		const [out] = await run(h);
		expect((await sentBody('/v1/orchestration/quote')).amount).toBe('125500000');
		expect(out).toMatchObject({ amountIn: '125500000', amountInFormatted: '125.5' });
		expect(out.estimatedOutFormatted).toEqual(expect.any(String));
	});

	it('version 1 workflows that stored nothing keep smallest units', async () => {
		const h = orchestrationNode({ sb, parameters: noFormat('125500000'), typeVersion: 1 });
		expect(h.node.parameters.amountFormat).toBe('smallestUnit');
		const [out] = await run(h);
		expect((await sentBody('/v1/orchestration/quote')).amount).toBe('125500000');
		expect(out).toMatchObject({ amountIn: '125500000', amountInFormatted: '125.5' });
		await control(sb).clearRequests();
		await refused(noFormat('125.5'), /^Invalid "amount" in item 0: "125.5" must be a whole number of smallest units.*set "Amount Format" to Decimal/, 1);
	});

	it('the description defines one Amount Format per version, same name, different default', () => {
		const formats = (new Orchestration().description.properties as any[]).filter(
			(p) => p.name === 'amountFormat' && p.displayOptions.show.operation.includes('create') && p.displayOptions.show.resource[0] === 'quote',
		);
		expect(formats.map((p) => [p.default, p.displayOptions.show['@version']])).toEqual([
			['smallestUnit', [1]],
			['decimal', [{ _cnd: { gte: 2 } }]],
		]);
	});
});

describe('Additional Fields cannot override the parameters the operation sets (issue 14 point 5)', () => {
	it.each([
		['quote.create recipientAddress', quoteParams({ options: { additionalFields: JSON.stringify({ recipientAddress: ADDR.evm }) } }), '"recipientAddress"'],
		['quote.create amount and sourceChain', quoteParams({ options: { additionalFields: '{"amount": "1", "sourceChain": "ethereum"}' } }), '"amount", "sourceChain"'],
		['order.submit quoteId', { resource: 'order', operation: 'submit', quoteId: 'q_1', txHash: '0x01', options: { additionalFields: '{"quoteId": "q_2"}' } }, '"quoteId"'],
		['quote.estimate amount', { ...quoteParams({ options: { additionalFields: '{"amount": "5"}' } }), operation: 'estimate' }, '"amount"'],
	])('%s is refused, naming it', async (_name, parameters, names) => {
		await refused(parameters as INodeParameters, new RegExp(`^Invalid "additionalFields" in item 0: sets ${names}, which this operation already sets`));
	});

	it('members the node does not set still pass through', async () => {
		const [out] = await run(orchestrationNode({ sb, parameters: quoteParams({ options: { additionalFields: '{"partnerReference": "po-17"}' } }) }));
		expect(out.quoteId).toEqual(expect.any(String));
		expect((await sentBody('/v1/orchestration/quote')).partnerReference).toBe('po-17');
	});
});

describe('path parameters (issue 14 point 9)', () => {
	it('reserved characters are encoded: the sandbox receives one path segment', async () => {
		const h = orchestrationNode({ sb, continueOnFail: true, parameters: { resource: 'accumulationAddress', operation: 'get', accumulationAddressId: 'a b?c#d' } });
		const [out] = await run(h);
		expect(out.httpCode).toBe('404');
		const [request] = await control(sb).requests();
		expect(request.path).toBe('/v1/accumulation-addresses/a%20b%3Fc%23d');
	});

	it.each([
		['accumulationAddress', 'get', 'accumulationAddressId', '..'],
		['accumulationAddress', 'get', 'accumulationAddressId', '.'],
		['accumulationAddress', 'reindex', 'idOrAddress', '..'],
		['liquidationAddress', 'get', 'liquidationAddressId', '..'],
		['accumulationAddress', 'get', 'accumulationAddressId', '..;'],
	])('%s.%s: %s = %s is refused before any request', async (resource, operation, field, value) => {
		await refused(
			{ resource, operation, [field]: value },
			`Invalid "${field}" in item 0: "${value}" is a dot segment, not an identifier; it would address another endpoint`,
		);
	});

	it.each([
		['accumulationAddressId', 'a/../b', 'must not contain "/" or "\\": an identifier is one path segment'],
		['accumulationAddressId', 'a\u0000', 'must not contain control characters (a NUL, a line break, a tab)'],
		['accumulationAddressId', '%2e%2e', 'must be the identifier itself, not percent-encoded (it is encoded when sent)'],
	])('accumulationAddress.get: %s = %j is refused before any request', async (field, value, problem) => {
		await refused({ resource: 'accumulationAddress', operation: 'get', [field]: value }, `Invalid "${field}" in item 0: ${problem}`);
	});
});
