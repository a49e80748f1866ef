import {
	AMOUNT_MODES,
	ASSET_SYMBOLS,
	CHAINS,
	CLIENT_KEY_SCOPES,
	DELIVERY_MODES,
	FEE_PAYOUT_LEGS,
	FEE_PAYOUT_ROLES,
	FINAL_STATUSES,
	isAssetSymbol,
	isChain,
	isFinalStatus,
	isStablecoin,
	isTokenizedEquity,
	isValidAssetInput,
	keyTypeOf,
	normalizeAssetInput,
	ORDER_EVENTS,
	orderEventFor,
	ORIGIN_MODES,
	parseRoutingKey,
	ROUTING_KEY_MAX_LENGTH,
	PRICE_LOCK_MODES,
	PUBLIC_STATUSES,
	STABLECOIN_SYMBOLS,
	STAGES,
	TOKENIZED_EQUITY_SYMBOLS,
} from '../../../nodes/shared/orchestration';

// Copied verbatim from orchestration-service.md 2.1 and 3.
const SPEC_CHAINS =
	'arbitrum, arc, avalanche, base, bitcoin, bsc, ethereum, hedera, hypercore, hyperevm, lightning, litecoin, monad, monero, optimism, plasma, polygon, robinhood, sei, solana, spark, tempo, ton, tron, xrp, zcash';
const SPEC_SYMBOLS =
	'AAPL, AI, AMD, AMZN, BNB, BONER, BTC, CASHCAT, COIN, COST, DAI, DELTA, DJT, ETH, GLD, GME, GOOGL, GRAM, HIMS, HSUSD, HYPE, IF, LTC, META, MON, MSFT, MSTR, MU, NVDA, PIPEDOG, PLTR, POL, PONS, PYUSD, PathUSD, QQQ, RDDT, SHX, SKHY, SLV, SNDK, SOL, SPCX, SPY, STONKBROKER, TENDIES, TRX, TSLA, TSM, UP, USDB, USDC, USDC.e, USDG, USDT, USDe, USD₮0, USO, WBNB, WBTC, WEN, XMR, XPL, XRP, ZEC, cbBTC, tBTC';
const list = (s: string) => s.split(', ');

describe('chains and assets (spec 2.1)', () => {
	test('exactly the spec lists', () => {
		expect([...CHAINS]).toEqual(list(SPEC_CHAINS));
		expect(CHAINS).toHaveLength(26);
		expect([...ASSET_SYMBOLS]).toEqual(list(SPEC_SYMBOLS));
		expect(ASSET_SYMBOLS).toHaveLength(67);
	});

	test('guards are exact and case-sensitive', () => {
		expect(isChain('base')).toBe(true);
		expect(isChain('Base')).toBe(false);
		expect(isChain('paused')).toBe(false);
		expect(isChain(1)).toBe(false);
		for (const s of ['USD₮0', 'USDC.e', 'PathUSD', 'cbBTC', 'tBTC', 'GRAM']) expect(isAssetSymbol(s)).toBe(true);
		for (const s of ['USDT0', 'usdc', 'TON', 'USDC.E', 'pathUSD']) expect(isAssetSymbol(s)).toBe(false);
	});

	test('stablecoins and tokenized equities are subsets of the symbols', () => {
		expect(STABLECOIN_SYMBOLS).toHaveLength(11);
		expect(TOKENIZED_EQUITY_SYMBOLS).toHaveLength(26);
		for (const s of [...STABLECOIN_SYMBOLS, ...TOKENIZED_EQUITY_SYMBOLS]) expect(isAssetSymbol(s)).toBe(true);
		expect(STABLECOIN_SYMBOLS.filter((s) => (TOKENIZED_EQUITY_SYMBOLS as readonly string[]).includes(s))).toEqual([]);
	});

	test('isStablecoin / isTokenizedEquity accept symbols and routing keys', () => {
		expect(isStablecoin('USDC')).toBe(true);
		expect(isStablecoin('ethereum:USDC')).toBe(true);
		expect(isStablecoin('tron:USD₮0')).toBe(true);
		expect(isStablecoin('BTC')).toBe(false);
		expect(isStablecoin('bitcoin:BTC')).toBe(false);
		expect(isStablecoin('stellar:USDC')).toBe(true);
		expect(isStablecoin('Nowhere:USDC')).toBe(false);
		expect(isStablecoin(undefined)).toBe(false);
		expect(isTokenizedEquity('AAPL')).toBe(true);
		expect(isTokenizedEquity('solana:TSLA')).toBe(true);
		expect(isTokenizedEquity('ETH')).toBe(false);
	});
});

describe('routing keys and the TON alias', () => {
	test('parseRoutingKey', () => {
		expect(parseRoutingKey('ethereum:USDC')).toEqual({ chain: 'ethereum', asset: 'USDC' });
		expect(parseRoutingKey('ton:GRAM')).toEqual({ chain: 'ton', asset: 'GRAM' });
		expect(parseRoutingKey('base:0xabc')).toEqual({ chain: 'base', asset: '0xabc' });
		expect(parseRoutingKey('stellar:XLM')).toEqual({ chain: 'stellar', asset: 'XLM' });
		for (const bad of ['USDC', 'Nowhere:USDC', ':USDC', 'base:', 'base:a:b', 'base:US DC', 'Base:USDC', 'no where:USDC', `${'x'.repeat(33)}:USDC`, '']) {
			expect(parseRoutingKey(bad)).toBeNull();
		}
	});

	test('normalizeAssetInput maps TON and nothing else', () => {
		expect(normalizeAssetInput('TON')).toBe('ton:GRAM');
		for (const other of ['ton', 'Ton', 'GRAM', 'ton:GRAM', 'USDC', ' TON']) expect(normalizeAssetInput(other)).toBe(other);
	});

	test('isValidAssetInput', () => {
		for (const ok of ['USDC', 'USD₮0', 'ethereum:USDC', 'ton:GRAM', 'TON', 'solana:SomeRegistryToken', 'XLM', 'stellar:XLM', 'usdc']) {
			expect(isValidAssetInput(ok)).toBe(true);
		}
		for (const bad of ['Nowhere:USDC', '', 'USDC ', 'base:', 'X'.repeat(65), 42]) expect(isValidAssetInput(bad)).toBe(false);
	});

	test('a routing key is at most ROUTING_KEY_MAX_LENGTH characters, checked before its pattern', () => {
		const longest = `base:${'a'.repeat(ROUTING_KEY_MAX_LENGTH - 5)}`;
		expect(longest).toHaveLength(256);
		expect(isValidAssetInput(longest)).toBe(true);
		expect(isValidAssetInput(`${longest}a`)).toBe(false);
		expect(parseRoutingKey(`${longest}a`)).toBeNull();
	});
});

describe('statuses, stages, events (spec 3, 6)', () => {
	test('sizes and members', () => {
		expect(PUBLIC_STATUSES).toHaveLength(11);
		expect(PUBLIC_STATUSES).not.toContain('paused');
		// public-notes: completed, failed and refunded are terminal; unfulfilled can still resume
		expect([...FINAL_STATUSES].sort()).toEqual(['completed', 'failed', 'refunded']);
		expect(STAGES).toHaveLength(13);
		expect(ORDER_EVENTS).toHaveLength(11);
	});

	test('one event per public status, none for paused', () => {
		expect(PUBLIC_STATUSES.map(orderEventFor)).toEqual([...ORDER_EVENTS]);
		expect(ORDER_EVENTS).not.toContain('order.paused');
	});

	test('isFinalStatus', () => {
		expect(isFinalStatus('completed')).toBe(true);
		expect(isFinalStatus('refunded')).toBe(true);
		expect(isFinalStatus('refunding')).toBe(false);
		expect(isFinalStatus('processing')).toBe(false);
		expect(isFinalStatus('paused')).toBe(false);
		expect(isFinalStatus('unfulfilled')).toBe(false);
	});

	test('modes, scopes, roles', () => {
		expect([...AMOUNT_MODES]).toEqual(['exact_in', 'exact_out']);
		expect([...DELIVERY_MODES]).toEqual(['variable', 'fixed']);
		expect([...PRICE_LOCK_MODES]).toEqual(['strict_requote', 'approval_required']);
		expect([...FEE_PAYOUT_ROLES]).toEqual(['app_fee', 'recipient_payout', 'platform_fee', 'fee_custody']);
		expect([...FEE_PAYOUT_LEGS]).toEqual(['full', 'holdback', 'instant']);
		expect(CLIENT_KEY_SCOPES).toHaveLength(8);
		expect([...ORIGIN_MODES]).toEqual(['server', 'browser', 'both']);
	});

	test('keyTypeOf (spec 5 prefixes)', () => {
		expect(keyTypeOf('fn_abc')).toBe('server');
		expect(keyTypeOf('fnp_abc')).toBe('client');
		expect(keyTypeOf('sk_abc')).toBeUndefined();
	});
});
