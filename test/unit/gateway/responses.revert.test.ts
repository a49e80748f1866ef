import { decodeRevertOutput, parseRevertLine, PANIC_CODE_MEANINGS } from '../../../nodes/shared/gateway';
import { encodeErrorString, encodePanic, formatRevertLine } from '../../../sandbox/gateway/revertLines';

const TX = '0x0ec0b6a2df4d87424e5f6ad2a654e27aaeb7dac20ae9e8385cc09087ad532ee0';
/** Error("Not enough Ether provided.") as ABI-encoded in the Solidity documentation (revert example). */
const NOT_ENOUGH_ETHER =
	'0x08c379a0' +
	'0000000000000000000000000000000000000000000000000000000000000020' +
	'000000000000000000000000000000000000000000000000000000000000001a' +
	'4e6f7420656e6f7567682045746865722070726f76696465642e000000000000';

describe('parseRevertLine (public-notes.md format)', () => {
	const line = `payload_flagged:stage=Execute outcome=Reverted intent_index=0 tx_hash=${TX} reason=reverted:gas_used=21000 output=${NOT_ENOUGH_ETHER}`;

	it('parses every field of the documented line', () => {
		expect(parseRevertLine(line)).toEqual({
			raw: line,
			prefix: 'payload_flagged',
			stage: 'Execute',
			outcome: 'Reverted',
			intentIndex: 0,
			txHash: TX,
			reason: 'reverted',
			gasUsed: '21000',
			output: NOT_ENOUGH_ETHER,
			decoded: { type: 'Error', message: 'Not enough Ether provided.' },
			fields: {
				stage: 'Execute',
				outcome: 'Reverted',
				intent_index: '0',
				tx_hash: TX,
				reason: 'reverted',
				gas_used: '21000',
				output: NOT_ENOUGH_ETHER,
			},
		});
	});

	it('handles reordered fields, no prefix and extra whitespace', () => {
		const parsed = parseRevertLine(`  output=0x  gas_used=53000 intent_index=3   outcome=Reverted stage=Execute tx_hash=${TX}`);
		expect(parsed).toMatchObject({ stage: 'Execute', outcome: 'Reverted', intentIndex: 3, gasUsed: '53000', txHash: TX, output: '0x', decoded: { type: 'empty' } });
		expect(parsed?.prefix).toBeUndefined();
	});

	it('handles missing fields', () => {
		const parsed = parseRevertLine('payload_flagged:stage=Execute outcome=Reverted');
		expect(parsed).toMatchObject({ prefix: 'payload_flagged', stage: 'Execute', outcome: 'Reverted' });
		expect(parsed?.txHash).toBeUndefined();
		expect(parsed?.output).toBeUndefined();
		expect(parsed?.decoded).toBeUndefined();
	});

	it('keeps the first of duplicated fields and collects unknown ones', () => {
		const parsed = parseRevertLine('stage=Execute stage=Settle gas_used=1 gas_used=2 block=77');
		expect(parsed).toMatchObject({ stage: 'Execute', gasUsed: '1', fields: { block: '77' } });
	});

	it('ignores garbage values instead of throwing', () => {
		const parsed = parseRevertLine('payload_flagged:stage= outcome intent_index=abc gas_used=-5 output=0xZZ tx_hash=');
		expect(parsed).not.toBeNull();
		expect(parsed?.intentIndex).toBeUndefined();
		expect(parsed?.gasUsed).toBeUndefined();
		expect(parsed?.stage).toBeUndefined();
		expect(parsed?.decoded).toEqual({ type: 'malformed', raw: '0xZZ', reason: 'output is not hex' });
	});

	it.each([null, undefined, '', '   ', 'deadline_exceeded', 'oracle_failure: transfer abc not found', '=== ::: ==='])(
		'returns null for %p',
		(input) => {
			expect(parseRevertLine(input as string | null | undefined)).toBeNull();
		},
	);

	it('never throws on random input', () => {
		const alphabet = 'ab=:_ 0x1f\t=stage=outcome=output=reason:gas_used=';
		for (let i = 0; i < 500; i++) {
			let s = '';
			for (let j = 0; j < (i % 60); j++) s += alphabet[(i * 31 + j * 17) % alphabet.length];
			expect(() => parseRevertLine(s)).not.toThrow();
		}
		expect(() => parseRevertLine(42 as unknown as string)).not.toThrow();
	});

	it('round-trips the sandbox formatter', () => {
		const formatted = formatRevertLine({ txHash: TX, gasUsed: 30000n, output: encodePanic(0x11) });
		expect(formatted).toBe(
			`payload_flagged:stage=Execute outcome=Reverted intent_index=0 tx_hash=${TX} reason=reverted:gas_used=30000 output=0x4e487b71${'0'.repeat(62)}11`,
		);
		expect(parseRevertLine(formatted)?.decoded).toEqual({ type: 'Panic', code: '0x11', meaning: 'arithmetic overflow or underflow' });
	});
});

describe('decodeRevertOutput', () => {
	it('decodes Error(string), including UTF-8 and an empty message', () => {
		expect(decodeRevertOutput(NOT_ENOUGH_ETHER)).toEqual({ type: 'Error', message: 'Not enough Ether provided.' });
		expect(encodeErrorString('Not enough Ether provided.')).toBe(NOT_ENOUGH_ETHER);
		expect(decodeRevertOutput(encodeErrorString('insufficient ✓ balance'))).toEqual({ type: 'Error', message: 'insufficient ✓ balance' });
		expect(decodeRevertOutput(encodeErrorString(''))).toEqual({ type: 'Error', message: '' });
		const long = 'x'.repeat(100);
		expect(decodeRevertOutput(encodeErrorString(long))).toEqual({ type: 'Error', message: long });
	});

	const panics: Array<[string, string]> = [
		['00', 'generic compiler-inserted panic'],
		['01', 'assertion failed (assert)'],
		['11', 'arithmetic overflow or underflow'],
		['12', 'division or modulo by zero'],
		['21', 'invalid enum conversion'],
		['22', 'incorrectly encoded storage byte array'],
		['31', 'pop() on an empty array'],
		['32', 'array index out of bounds'],
		['41', 'out of memory (allocation too large)'],
		['51', 'call to a zero-initialized internal function pointer'],
	];
	it.each(panics)('decodes Panic(0x%s)', (code, meaning) => {
		const output = `0x4e487b71${'0'.repeat(62)}${code}`;
		expect(decodeRevertOutput(output)).toEqual({ type: 'Panic', code: `0x${code}`, meaning });
	});

	it('covers every listed panic code', () => {
		expect(Object.keys(PANIC_CODE_MEANINGS).sort()).toEqual(panics.map(([c]) => `0x${c}`).sort());
	});

	it('reports unknown panic codes', () => {
		expect(decodeRevertOutput(`0x4e487b71${'0'.repeat(61)}999`)).toEqual({ type: 'Panic', code: '0x999', meaning: 'unknown panic code' });
	});

	it('returns custom selectors with their data', () => {
		// InsufficientBalance(uint256,uint256) style custom error.
		const data = '00'.repeat(31) + '05' + '00'.repeat(31) + '0a';
		expect(decodeRevertOutput(`0xcf479181${data}`)).toEqual({ type: 'custom', selector: '0xcf479181', data: `0x${data}` });
		expect(decodeRevertOutput('0x12345678')).toEqual({ type: 'custom', selector: '0x12345678', data: '0x' });
	});

	it('returns empty for 0x', () => {
		expect(decodeRevertOutput('0x')).toEqual({ type: 'empty' });
		expect(decodeRevertOutput('')).toEqual({ type: 'empty' });
	});

	it.each([
		['0x08c379a0', 'truncated'],
		[`0x08c379a0${'0'.repeat(62)}20`, 'no length word'],
		[`0x08c379a0${'0'.repeat(62)}20${'0'.repeat(62)}ff`, 'length past the end'],
		[`0x08c379a0${'f'.repeat(64)}${'0'.repeat(64)}`, 'huge offset'],
		['0x4e487b71', 'panic without code'],
		[`0x4e487b71${'0'.repeat(62)}11ff`, 'panic with trailing bytes'],
		['0x1234', 'shorter than a selector'],
		['0x123', 'odd length'],
		['nothex', 'not hex'],
	])('keeps malformed output raw: %s (%s)', (output) => {
		const decoded = decodeRevertOutput(output);
		expect(decoded.type).toBe('malformed');
		expect(decoded).toMatchObject({ raw: output });
	});
});
