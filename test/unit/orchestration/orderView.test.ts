import { flatOrderOf, orderWithFormattedAmounts, type AssetDecimals } from '../../../nodes/shared/orchestration/orderView';

/** The members webhook data and the status order share. */
const top = { id: 'ord_1', status: 'refunded', updatedAt: '2026-11-25T10:00:00Z', amountIn: '250000000', amountOut: null, feeAmount: '750000', completedAt: '2026-11-25T10:05:00Z' };
/** A webhook `data` as the live service nests it (public-notes "Webhooks"). */
const nested = {
	...top,
	source: { chain: 'base', asset: 'USDC', address: '0xdep', txHash: '0xin', sweepTxHash: '0xsweep', confirmations: 3 },
	destination: { chain: 'bitcoin', asset: 'BTC', address: 'bc1qrecipient', txHash: null },
	refund: { asset: 'USDC', amount: '249250000', txHash: '0xrefund' },
	error: { code: 'slippage_exceeded', message: 'price moved' },
	priceLock: { version: 1, mode: 'strict_requote', amountIn: '250000000' },
	newMember: 'kept',
};

const listing: Record<string, number> = { 'base:USDC': 6, 'bitcoin:BTC': 8 };
const assets: AssetDecimals = {
	find: (chain, asset) => {
		const decimals = asset === undefined ? undefined : listing[asset.includes(':') ? asset : `${chain}:${asset}`];
		return decimals === undefined ? undefined : { decimals };
	},
	decimalsOfSymbol: (symbol, chains) => {
		for (const chain of chains) if (listing[`${chain}:${symbol}`] !== undefined) return listing[`${chain}:${symbol}`];
		return undefined;
	},
};

describe('flatOrderOf: the webhook data in the status shape', () => {
	test('lifts source, destination, refund and error to the flat names, keeps everything else', () => {
		expect(flatOrderOf(nested)).toEqual({
			...top,
			sourceChain: 'base',
			sourceAsset: 'USDC',
			depositAddress: '0xdep',
			sourceTxHash: '0xin',
			sweepTxHash: '0xsweep',
			sourceConfirmations: 3,
			destinationChain: 'bitcoin',
			destinationAsset: 'BTC',
			recipientAddress: 'bc1qrecipient',
			destinationTxHash: null,
			refundAsset: 'USDC',
			refundAmount: '249250000',
			refundTxHash: '0xrefund',
			errorCode: 'slippage_exceeded',
			errorMessage: 'price moved',
			priceLock: { version: 1, mode: 'strict_requote', amountIn: '250000000' },
			newMember: 'kept',
		});
	});

	test('an order that is flat already comes out unchanged; a flat member wins over a nested one', () => {
		const flat = { id: 'o', status: 'completed', sourceChain: 'base', sourceAsset: 'USDC', error: null, source: 'text' };
		expect(flatOrderOf(flat)).toEqual(flat);
		expect(flatOrderOf({ id: 'o', sourceChain: 'ethereum', source: { chain: 'base' } })).toEqual({ id: 'o', sourceChain: 'ethereum' });
	});
});

describe('orderWithFormattedAmounts', () => {
	test('adds decimals next to the amounts of known assets, fee payouts and refund included', () => {
		const order = {
			...flatOrderOf(nested),
			amountOut: '41000',
			feePayouts: { entries: [{ role: 'affiliate_bonus', leg: 'deferred', amount: '1500000', platformCutAmount: null }, 'odd'] },
		};
		const out = orderWithFormattedAmounts(order, assets);
		expect(out).toMatchObject({
			amountInFormatted: '250',
			amountOutFormatted: '0.00041',
			feeAmountFormatted: '0.75',
			refundAmountFormatted: '249.25',
		});
		expect((out.feePayouts as { entries: unknown[] }).entries).toEqual([
			{ role: 'affiliate_bonus', leg: 'deferred', amount: '1500000', amountFormatted: '1.5', platformCutAmount: null },
			'odd',
		]);
		// the input is not changed
		expect(order).not.toHaveProperty('amountInFormatted');
	});

	test('an asset the listing does not know leaves its amounts as they are', () => {
		const order = { id: 'o', sourceChain: 'sui', sourceAsset: 'SUI', destinationChain: 'bitcoin', destinationAsset: 'BTC', amountIn: '5', amountOut: '100000000', feeAmount: '1' };
		const out = orderWithFormattedAmounts(order, assets);
		expect(out).not.toHaveProperty('amountInFormatted');
		expect(out).not.toHaveProperty('feeAmountFormatted');
		expect((out as Record<string, unknown>).amountOutFormatted).toBe('1');
		expect(orderWithFormattedAmounts({ id: 'o', amountIn: 'x1', sourceChain: 'base', sourceAsset: 'USDC' }, assets)).not.toHaveProperty('amountInFormatted');
	});
});
