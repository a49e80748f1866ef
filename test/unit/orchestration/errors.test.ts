import { z } from 'zod';
import {
	formatZodError,
	formatZodPath,
	parseWithSchema,
	ProtocolError,
	QuoteRequestSchema,
} from '../../../nodes/shared/orchestration';

describe('ProtocolError', () => {
	test('carries field, reason and cause', () => {
		const cause = new Error('inner');
		const e = new ProtocolError('bad', { field: 'amount', reason: 'blank', cause });
		expect(e).toBeInstanceOf(Error);
		expect(e.name).toBe('ProtocolError');
		expect([e.message, e.field, e.reason, e.cause]).toEqual(['bad', 'amount', 'blank', cause]);
		expect(new ProtocolError('x').field).toBeUndefined();
	});
});

describe('formatZodPath / formatZodError', () => {
	test('paths use dots and [index]; odd keys are quoted', () => {
		expect(formatZodPath(['appFees', 3, 'feeBps'])).toBe('appFees[3].feeBps');
		expect(formatZodPath([0, 'a'])).toBe('[0].a');
		expect(formatZodPath(['x-y', 'z'])).toBe('["x-y"].z');
		expect(formatZodPath([])).toBe('(root)');
	});

	test('one "<path>: <message>" per issue, joined by "; "', () => {
		const result = QuoteRequestSchema.safeParse({
			sourceChain: 'base',
			sourceAsset: 'USDC',
			destinationChain: 'No Where',
			destinationAsset: 'ETH',
			amount: '1.5',
			recipientAddress: '0xabc',
			appFees: [1, 2, 3, { recipient: 'r', feeBps: 10001 }].map((v) =>
				typeof v === 'number' ? { recipient: 'r', feeBps: 1 } : v,
			),
		});
		expect(result.success).toBe(false);
		if (result.success) return;
		const text = formatZodError(result.error);
		const parts = text.split('; ');
		expect(parts.some((p) => p.startsWith('destinationChain: '))).toBe(true);
		expect(parts.some((p) => p.startsWith('amount: '))).toBe(true);
		expect(parts).toContain('appFees[3].feeBps: Number must be less than or equal to 10000');
	});

	test('a union reports the branch that matched the type', () => {
		const schema = z.object({ list: z.array(z.union([z.string(), z.object({ feeBps: z.number().max(5) })])) });
		const result = schema.safeParse({ list: ['a', { feeBps: 9 }] });
		expect(result.success).toBe(false);
		if (result.success) return;
		expect(formatZodError(result.error)).toBe('list[1].feeBps: Number must be less than or equal to 5');
		const both = schema.safeParse({ list: [7] });
		if (both.success) throw new Error('expected failure');
		expect(formatZodError(both.error)).toBe('list[0]: Invalid input');
	});

	test('parseWithSchema throws a ProtocolError naming the first field', () => {
		expect(() => parseWithSchema(z.object({ a: z.string() }), { a: 1 }, 'Invalid thing')).toThrow(
			'Invalid thing: a: Expected string, received number',
		);
		let caught: unknown;
		try {
			parseWithSchema(z.object({ a: z.string() }), {}, 'Invalid thing', 'my_reason');
		} catch (err) {
			caught = err;
		}
		expect(caught).toMatchObject({ field: 'a', reason: 'my_reason' });
		expect(parseWithSchema(z.object({ a: z.string() }), { a: 'x' }, 'Invalid thing')).toEqual({ a: 'x' });
	});
});
