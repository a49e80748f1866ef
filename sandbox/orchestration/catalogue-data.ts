/**
 * Realistic catalogue data for the routes listing (spec §2.3): every chain and asset of §2.1, with
 * decimals, contract addresses (null for native assets) and CAIP-style chain ids (null for some),
 * plus a chain the spec does not list (stellar): the live service keeps adding chains and its
 * listing is the authority (public-notes "Chains"), so clients must take one without a release.
 * Prices are fixed fake USD values so quotes are deterministic.
 */
export type AddressFormat =
	| 'evm'
	| 'bitcoin'
	| 'litecoin'
	| 'lightning'
	| 'spark'
	| 'solana'
	| 'tron'
	| 'xrp'
	| 'ton'
	| 'hedera'
	| 'monero'
	| 'zcash'
	| 'stellar';

export interface ChainInfo {
	displayName: string;
	chainId: string | null;
	format: AddressFormat;
}

export const CHAIN_INFO: Record<string, ChainInfo> = {
	arbitrum: { displayName: 'Arbitrum One', chainId: 'eip155:42161', format: 'evm' },
	arc: { displayName: 'Arc', chainId: 'eip155:5042002', format: 'evm' },
	avalanche: { displayName: 'Avalanche C-Chain', chainId: 'eip155:43114', format: 'evm' },
	base: { displayName: 'Base', chainId: 'eip155:8453', format: 'evm' },
	bitcoin: { displayName: 'Bitcoin', chainId: 'bip122:000000000019d6689c085ae165831e93', format: 'bitcoin' },
	bsc: { displayName: 'BNB Smart Chain', chainId: 'eip155:56', format: 'evm' },
	ethereum: { displayName: 'Ethereum', chainId: 'eip155:1', format: 'evm' },
	hedera: { displayName: 'Hedera', chainId: 'hedera:mainnet', format: 'hedera' },
	hypercore: { displayName: 'HyperCore', chainId: null, format: 'evm' },
	hyperevm: { displayName: 'HyperEVM', chainId: 'eip155:999', format: 'evm' },
	lightning: { displayName: 'Lightning Network', chainId: null, format: 'lightning' },
	litecoin: { displayName: 'Litecoin', chainId: 'bip122:12a765e31ffd4059bada1e25190f6e98', format: 'litecoin' },
	monad: { displayName: 'Monad', chainId: 'eip155:143', format: 'evm' },
	monero: { displayName: 'Monero', chainId: null, format: 'monero' },
	optimism: { displayName: 'OP Mainnet', chainId: 'eip155:10', format: 'evm' },
	plasma: { displayName: 'Plasma', chainId: 'eip155:9745', format: 'evm' },
	polygon: { displayName: 'Polygon PoS', chainId: 'eip155:137', format: 'evm' },
	robinhood: { displayName: 'Robinhood Chain', chainId: 'eip155:4663', format: 'evm' },
	sei: { displayName: 'Sei', chainId: 'eip155:1329', format: 'evm' },
	solana: { displayName: 'Solana', chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', format: 'solana' },
	// not in spec §2.1's chain list: a chain the service added after the spec
	stellar: { displayName: 'Stellar', chainId: 'stellar:pubnet', format: 'stellar' },
	spark: { displayName: 'Spark', chainId: null, format: 'spark' },
	tempo: { displayName: 'Tempo', chainId: 'eip155:4217', format: 'evm' },
	ton: { displayName: 'TON', chainId: 'ton:mainnet', format: 'ton' },
	tron: { displayName: 'TRON', chainId: 'tron:0x2b6653dc', format: 'tron' },
	xrp: { displayName: 'XRP Ledger', chainId: 'xrpl:0', format: 'xrp' },
	zcash: { displayName: 'Zcash', chainId: null, format: 'zcash' },
};

/** [chain, asset, display name, decimals, contract address or null for natives] */
export type AssetRow = [string, string, string, number, string | null];

const USDT0 = '0xB8CE59FC3717ada4C02eaDF9682A9e934F625ebb';

export const ASSET_ROWS: AssetRow[] = [
	['bitcoin', 'BTC', 'Bitcoin', 8, null],
	['lightning', 'BTC', 'Bitcoin (Lightning)', 8, null],
	['spark', 'BTC', 'Bitcoin (Spark)', 8, null],
	['spark', 'USDB', 'USDB', 6, 'btkn1sandboxusdb0000000000000000000000000000000000000000000'],
	['spark', 'AI', 'AI', 6, 'btkn1sandboxai000000000000000000000000000000000000000000000'],
	['spark', 'BONER', 'Boner', 6, 'btkn1sandboxboner0000000000000000000000000000000000000000000'],
	['spark', 'CASHCAT', 'Cash Cat', 6, 'btkn1sandboxcashcat00000000000000000000000000000000000000000'],
	['spark', 'DELTA', 'Delta', 6, 'btkn1sandboxdelta0000000000000000000000000000000000000000000'],
	['spark', 'IF', 'IF', 6, 'btkn1sandboxif000000000000000000000000000000000000000000000'],
	['spark', 'PIPEDOG', 'Pipe Dog', 6, 'btkn1sandboxpipedog00000000000000000000000000000000000000000'],
	['spark', 'PONS', 'Pons', 6, 'btkn1sandboxpons00000000000000000000000000000000000000000000'],
	['spark', 'SHX', 'SHX', 6, 'btkn1sandboxshx000000000000000000000000000000000000000000000'],
	['spark', 'STONKBROKER', 'Stonkbroker', 6, 'btkn1sandboxstonkbroker000000000000000000000000000000000000'],
	['spark', 'TENDIES', 'Tendies', 6, 'btkn1sandboxtendies00000000000000000000000000000000000000000'],
	['spark', 'UP', 'UP', 6, 'btkn1sandboxup000000000000000000000000000000000000000000000'],
	['spark', 'WEN', 'Wen', 6, 'btkn1sandboxwen000000000000000000000000000000000000000000000'],
	['ethereum', 'ETH', 'Ether', 18, null],
	['ethereum', 'USDC', 'USD Coin', 6, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
	['ethereum', 'USDT', 'Tether USD', 6, '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
	['ethereum', 'DAI', 'Dai Stablecoin', 18, '0x6B175474E89094C44Da98b954EedeAC495271d0F'],
	['ethereum', 'WBTC', 'Wrapped BTC', 8, '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599'],
	['ethereum', 'cbBTC', 'Coinbase Wrapped BTC', 8, '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf'],
	['ethereum', 'tBTC', 'tBTC v2', 18, '0x18084fbA666a33d37592fA2633fD49a74DD93a88'],
	['ethereum', 'USDe', 'Ethena USDe', 18, '0x4c9EDD5852cd905f086C759E8383e09bff1E68B3'],
	['ethereum', 'PYUSD', 'PayPal USD', 6, '0x6c3ea9036406852006290770BEdFcAbA0e23A0e8'],
	['ethereum', 'USDG', 'Global Dollar', 6, '0xe343167631d89B6Ffc58B88d6b7fB0228795491D'],
	['arbitrum', 'ETH', 'Ether', 18, null],
	['arbitrum', 'USDC', 'USD Coin', 6, '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'],
	['arbitrum', 'USDC.e', 'Bridged USDC', 6, '0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8'],
	['arbitrum', 'USD₮0', 'USD₮0', 6, '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9'],
	['base', 'ETH', 'Ether', 18, null],
	['base', 'USDC', 'USD Coin', 6, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
	['base', 'cbBTC', 'Coinbase Wrapped BTC', 8, '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf'],
	['base', 'DAI', 'Dai Stablecoin', 18, '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb'],
	['optimism', 'ETH', 'Ether', 18, null],
	['optimism', 'USDC', 'USD Coin', 6, '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'],
	['polygon', 'POL', 'POL', 18, null],
	['polygon', 'USDC', 'USD Coin', 6, '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'],
	['polygon', 'USDC.e', 'Bridged USDC', 6, '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'],
	['polygon', 'USDT', 'Tether USD', 6, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'],
	['avalanche', 'USDC', 'USD Coin', 6, '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E'],
	['avalanche', 'USDT', 'Tether USD', 6, '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7'],
	['bsc', 'BNB', 'BNB', 18, null],
	['bsc', 'WBNB', 'Wrapped BNB', 18, '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c'],
	['bsc', 'USDT', 'Tether USD', 18, '0x55d398326f99059fF775485246999027B3197955'],
	['bsc', 'USDC', 'USD Coin', 18, '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d'],
	['hyperevm', 'HYPE', 'Hyperliquid', 18, null],
	['hyperevm', 'USD₮0', 'USD₮0', 6, USDT0],
	['hyperevm', 'HSUSD', 'Hyperstable USD', 18, '0x0000000000000000000000000000000000005e5d'],
	['hypercore', 'HYPE', 'Hyperliquid (HyperCore)', 8, null],
	['hypercore', 'USDC', 'USD Coin (HyperCore)', 8, '0x6d1e7cde53ba9467b783cb7c530ce054'],
	['monad', 'MON', 'Monad', 18, null],
	['monad', 'USDC', 'USD Coin', 6, '0x754704Bc059F8C67012fEd69BC8A327a5aafb603'],
	['plasma', 'XPL', 'Plasma', 18, null],
	['plasma', 'USD₮0', 'USD₮0', 6, USDT0],
	['sei', 'USDC', 'USD Coin', 6, '0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392'],
	['arc', 'USDC', 'USD Coin', 6, '0x3600000000000000000000000000000000000000'],
	['tempo', 'PathUSD', 'PathUSD', 6, '0x20c0000000000000000000000000000000000000'],
	['tempo', 'USDC', 'USD Coin', 6, '0x20c000000000000000000000b9537d11c60e8b50'],
	['robinhood', 'ETH', 'Ether', 18, null],
	['solana', 'SOL', 'Solana', 9, null],
	['solana', 'USDC', 'USD Coin', 6, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
	['solana', 'USDT', 'Tether USD', 6, 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'],
	['solana', 'PYUSD', 'PayPal USD', 6, '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo'],
	['solana', 'USDG', 'Global Dollar', 6, '2u1tszSeqZ3qBWF3uNGPFc8TzMk2tdiwknnRMWGWjGWH'],
	['tron', 'TRX', 'TRON', 6, null],
	['tron', 'USDT', 'Tether USD', 6, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
	['ton', 'GRAM', 'Gram', 9, null],
	['ton', 'USDT', 'Tether USD', 6, 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs'],
	['hedera', 'USDC', 'USD Coin', 6, '0.0.456858'],
	['xrp', 'XRP', 'XRP', 6, null],
	['litecoin', 'LTC', 'Litecoin', 8, null],
	['monero', 'XMR', 'Monero', 12, null],
	['zcash', 'ZEC', 'Zcash', 8, null],
	// a chain and an asset (XLM) outside spec §2.1's lists; Stellar assets have 7 decimals
	['stellar', 'XLM', 'Stellar Lumens', 7, null],
	['stellar', 'USDC', 'USD Coin', 7, 'USDC-GSANDBOXUSDCISSUER2222222222222222222222222222222222'],
];

/** Reviewed tokenized equities live on the robinhood chain; their display names. */
export const EQUITY_NAMES: Record<string, string> = {
	AAPL: 'Apple', AMD: 'Advanced Micro Devices', AMZN: 'Amazon', COIN: 'Coinbase', COST: 'Costco',
	DJT: 'Trump Media & Technology', GLD: 'SPDR Gold Shares', GME: 'GameStop', GOOGL: 'Alphabet',
	HIMS: 'Hims & Hers', META: 'Meta Platforms', MSFT: 'Microsoft', MSTR: 'Strategy', MU: 'Micron',
	NVDA: 'NVIDIA', PLTR: 'Palantir', QQQ: 'Invesco QQQ', RDDT: 'Reddit', SKHY: 'SK hynix',
	SLV: 'iShares Silver Trust', SNDK: 'Sandisk', SPCX: 'SpaceX (private)', SPY: 'SPDR S&P 500 ETF',
	TSLA: 'Tesla', TSM: 'TSMC', USO: 'United States Oil Fund',
};

/** Fake USD prices, as decimal strings (exact, turned into fixed point by the pricing module). */
export const USD_PRICES: Record<string, string> = {
	BTC: '100000', WBTC: '100000', cbBTC: '100000', tBTC: '100000', ETH: '3500', SOL: '150', BNB: '600',
	WBNB: '600', POL: '0.5', TRX: '0.25', GRAM: '3.2', XRP: '2.4', LTC: '90', XMR: '160', ZEC: '40',
	HYPE: '30', MON: '0.05', XPL: '0.8', XLM: '0.3', AI: '0.002', BONER: '0.00001', CASHCAT: '0.0004', DELTA: '0.01',
	IF: '0.3', PIPEDOG: '0.00002', PONS: '0.001', SHX: '0.005', STONKBROKER: '0.0001', TENDIES: '0.0007',
	UP: '0.02', WEN: '0.00009', AAPL: '230', AMD: '160', AMZN: '220', COIN: '300', COST: '950', DJT: '25',
	GLD: '300', GME: '25', GOOGL: '190', HIMS: '50', META: '700', MSFT: '500', MSTR: '400', MU: '120',
	NVDA: '180', PLTR: '150', QQQ: '560', RDDT: '200', SKHY: '250', SLV: '33', SNDK: '60', SPCX: '180',
	SPY: '640', TSLA: '330', TSM: '240', USO: '75',
};

/** Stablecoins and any asset without a listed price are worth one dollar. */
export const DEFAULT_USD_PRICE = '1';
