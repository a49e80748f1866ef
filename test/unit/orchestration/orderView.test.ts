import {
	actionRequiredOf,
	flatOrderOf,
	needsRepriceApproval,
	orderWithFormattedAmounts,
	priceLockModeOf,
	successorOf,
	type AssetDecimals,
} from '../../../nodes/shared/orchestration/orderView';

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

describe('fee payout entries, each in the asset it is paid in (public-notes)', () => {
	// A USDC -> BTC order: 100 USDC in, the recipient gets 49,850 sats; fees are taken in USDC.
	const usdcToBtc = {
		id: 'ord_usdc_btc',
		status: 'completed',
		sourceChain: 'base',
		sourceAsset: 'USDC',
		destinationChain: 'bitcoin',
		destinationAsset: 'BTC',
		amountIn: '100000000',
		amountOut: '49850',
		feeAmount: '300000',
		feeAsset: 'USDC',
		feePayouts: {
			entries: [
				{ role: 'app_fee', leg: 'full', amount: '250000', platformCutAmount: '50000', recipientAmount: '200000' },
				{ role: 'platform_fee', leg: 'full', amount: '300000', platformCutAmount: '300000', recipientAmount: '0' },
				{ role: 'fee_custody', leg: 'holdback', amount: '1000', platformCutAmount: null, recipientAmount: null },
				{ role: 'recipient_payout', leg: 'full', amount: '49850', platformCutAmount: null, recipientAmount: null },
			],
		},
	};

	test('the recipient payout in the destination asset (49,850 sats = 0.0004985 BTC), the fee entries in the fee asset', () => {
		const entries = (orderWithFormattedAmounts(usdcToBtc, assets).feePayouts as { entries: Array<Record<string, unknown>> }).entries;
		expect(entries.map((e) => [e.role, e.amountFormatted])).toEqual([
			['app_fee', '0.25'],
			['platform_fee', '0.3'],
			['fee_custody', '0.001'],
			['recipient_payout', '0.0004985'],
		]);
		expect(entries[0]).toMatchObject({ platformCutAmountFormatted: '0.05', recipientAmountFormatted: '0.2' });
		// the split amounts of the recipient payout are null: nothing to format
		expect(entries[3]).not.toHaveProperty('platformCutAmountFormatted');
	});

	test('an entry naming its own asset is formatted in it; a recipient payout of an unknown destination stays as it is', () => {
		const own = { ...usdcToBtc, feePayouts: { entries: [{ role: 'app_fee', leg: 'full', amount: '12345', asset: 'BTC', chain: 'bitcoin' }] } };
		expect((orderWithFormattedAmounts(own, assets).feePayouts as { entries: Array<Record<string, unknown>> }).entries[0].amountFormatted).toBe('0.00012345');
		const unknownDestination = { ...usdcToBtc, destinationChain: 'sui', destinationAsset: 'SUI' };
		const entries = (orderWithFormattedAmounts(unknownDestination, assets).feePayouts as { entries: Array<Record<string, unknown>> }).entries;
		expect(entries[3]).not.toHaveProperty('amountFormatted');
		expect(entries[0].amountFormatted).toBe('0.25');
	});
});

describe('after a wait: successors and approvals', () => {
	test('successorOf: an unfulfilled order that names another order', () => {
		expect(successorOf({ id: 'a', supersededByOperationId: 'b' }, 'unfulfilled')).toBe('b');
		expect(successorOf({ id: 'a', supersededByOperationId: 'b' }, 'processing')).toBeUndefined();
		expect(successorOf({ id: 'a', supersededByOperationId: 'a' }, 'unfulfilled')).toBeUndefined();
		expect(successorOf({ id: 'a', supersededByOperationId: '' }, 'unfulfilled')).toBeUndefined();
		expect(successorOf({ id: 'a', supersededByOperationId: 7 }, 'unfulfilled')).toBeUndefined();
		expect(successorOf({ id: 'a' }, 'unfulfilled')).toBeUndefined();
	});

	test('a reprice approval: the error code in either place, or awaiting_approval under an approval_required lock', () => {
		expect(needsRepriceApproval({ errorCode: 'reprice_approval_required' }, 'swapping', false)).toBe(true);
		expect(needsRepriceApproval({ error: { code: 'reprice_approval_required' } }, 'awaiting_approval', false)).toBe(true);
		expect(needsRepriceApproval({ errorCode: 'reprice_approval_required' }, 'refunded', true)).toBe(false);
		expect(needsRepriceApproval({ priceLock: { mode: 'approval_required' } }, 'awaiting_approval', false)).toBe(true);
		expect(needsRepriceApproval({ priceLockMode: 'approval_required' }, 'awaiting_approval', false)).toBe(true);
		// the mode alone is how the order would react, not a request: it ends nothing while the order moves
		expect(needsRepriceApproval({ priceLock: { mode: 'approval_required' } }, 'swapping', false)).toBe(false);
		expect(needsRepriceApproval({ priceLock: { mode: 'strict_requote' } }, 'awaiting_approval', false)).toBe(false);
		// a ZeroConf offer is the other reason for awaiting_approval
		expect(needsRepriceApproval({ priceLock: { mode: 'approval_required' }, zeroconfOffer: { status: 'pending' } }, 'awaiting_approval', false)).toBe(false);
		expect(priceLockModeOf({ priceLock: { mode: 'approval_required' }, priceLockMode: 'strict_requote' })).toBe('approval_required');
		expect(priceLockModeOf({ priceLock: null, priceLockMode: 'strict_requote' })).toBe('strict_requote');
	});

	test('actionRequiredOf says what the person must do: a ZeroConf offer, a new price to approve, or an operator hold', () => {
		expect(actionRequiredOf({ status: 'awaiting_approval', zeroconfOffer: { status: 'pending' } })).toMatchObject({ actionRequired: { reason: 'zeroconfOffer' } });
		const reprice = actionRequiredOf({ status: 'awaiting_approval', zeroconfOffer: null, priceLock: { mode: 'approval_required' } });
		expect(reprice).toMatchObject({
			zeroconfOffer: null,
			actionRequired: { reason: 'repriceApproval', operations: ['Order > Approve Reprice', 'Order > Reject Reprice'], priceLockMode: 'approval_required', errorCode: null },
		});
		expect((reprice.actionRequired as { message: string }).message).toMatch(/approval of the new price.* Answer with Order > Approve Reprice, Order > Reject Reprice \(server key\)/);
		// a Bitcoin-source order may also be refunded; the figures come formatted in the destination asset
		const bitcoin = actionRequiredOf({
			status: 'awaiting_approval', sourceChain: 'bitcoin', destinationAsset: 'USDC', zeroconfOffer: null, priceLock: { mode: 'approval_required' },
			reprice: { proposedMinAmountOut: '96500000', proposedMinAmountOutFormatted: '96.5', previousLockedMinAmountOut: '99000000', previousLockedMinAmountOutFormatted: '99' },
		});
		expect(bitcoin.actionRequired).toMatchObject({ operations: ['Order > Approve Reprice', 'Order > Reject Reprice', 'Order > Refund Reprice'], reprice: { proposedMinAmountOutFormatted: '96.5' } });
		expect((bitcoin.actionRequired as { message: string }).message).toMatch(/proposes a minimum of 96\.5 USDC \(99 USDC was locked\)/);
		expect(actionRequiredOf({ status: 'swapping', errorCode: 'reprice_approval_required' })).toMatchObject({
			actionRequired: { reason: 'repriceApproval', errorCode: 'reprice_approval_required', priceLockMode: null },
		});
		expect(actionRequiredOf({ status: 'awaiting_approval', zeroconfOffer: null })).toMatchObject({ actionRequired: { reason: 'operatorHold' } });
	});
});
