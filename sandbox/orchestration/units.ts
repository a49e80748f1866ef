/**
 * Exact amounts for the sandbox's own arithmetic (spec 2: integer strings in the asset's smallest
 * unit). BigInt only: nothing passes through a JS number. Inputs were checked by wire.ts first.
 */

/** "25.5" with 9 decimals -> 25500000000n. Digits with an optional fraction of at most `decimals` digits. */
export function decimalToUnits(text: string, decimals: number): bigint {
	const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
	if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text.slice(0, 40))}`);
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	if (fraction.length > decimals) throw new RangeError(`more than ${decimals} decimals`);
	return BigInt(match[1] + fraction.padEnd(decimals, '0'));
}

/** 25500000000n with 9 decimals -> "25.5": no trailing fractional zeros, "0" for zero. */
export function unitsToDecimal(units: bigint, decimals: number): string {
	const digits = units.toString().padStart(decimals + 1, '0');
	const whole = digits.slice(0, digits.length - decimals);
	const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
	return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Spec 4.1: stablecoin exact_out amounts must be whole cents (every amount is, below 2 decimals). */
export function isWholeCents(amount: string, decimals: number): boolean {
	const perCent = decimals < 2 ? 1n : 10n ** BigInt(decimals - 2);
	return BigInt(amount) % perCent === 0n;
}
