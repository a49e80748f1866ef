import { isStablecoin, TOKENIZED_EQUITIES } from './spec';
import { ASSET_ROWS, CHAIN_INFO, EQUITY_NAMES, type ChainInfo } from './catalogue-data';

/** One asset of the catalogue with its reachable destinations (spec §2.3). */
export interface CatalogueAsset {
	id: string;
	chain: string;
	asset: string;
	displayName: string;
	decimals: number;
	contractAddress: string | null;
	chainInfo: ChainInfo;
	/** Reviewed tokenized equity: v2 only, only with admission (spec §1, §9). */
	equity: boolean;
	/** Synthetic entry of the large catalogue switch. */
	synthetic: boolean;
	to: 'all' | string[];
	/** With `to: 'all'`: the ids it does not reach, listed as `{except: [...]}` (public-notes "Routes listing (v2)"). */
	except?: string[];
	exactOutTo: string[];
	fixedTo: string[];
}

/** Who is looking: decides which entries are visible. */
export interface CatalogueView {
	v2: boolean;
	equityAdmission: boolean;
	large: boolean;
}

/** The wire shape of a route asset entry (spec §2.3). */
export interface RouteAssetEntry {
	id: string;
	chain: string;
	asset: string;
	assetDisplayName: string;
	assetDisplaySymbol: string;
	contractAddress: string | null;
	decimals: number;
	chainId: string | null;
	chainDisplayName: string;
	chainIcon: string;
	route: { to: 'all' | string[] | { except: string[] }; exactOutTo: string[]; fixedTo: string[] };
}

/** Sources that reach every visible destination (`route.to = "all"`). */
const ALL_SOURCES = new Set(['bitcoin:BTC', 'spark:BTC', 'ethereum:USDC', 'base:USDC']);
/** Sources that reach everything but a few (`route.to = {except: [...]}`, the docs' example entry). */
const EXCEPT_SOURCES: Record<string, string[]> = { 'base:USDC': ['litecoin:LTC'] };
/** Sources with no destination at all (`route.to = []`). */
const NO_ROUTE_SOURCES = new Set(['bsc:WBNB']);
/** Destinations most sources reach. */
const HUBS = [
	'bitcoin:BTC', 'lightning:BTC', 'spark:BTC', 'spark:USDB', 'ethereum:ETH', 'ethereum:USDC', 'ethereum:USDT',
	'base:USDC', 'arbitrum:USDC', 'solana:SOL', 'solana:USDC', 'tron:USDT', 'polygon:USDC', 'bsc:USDT',
	// a chain outside spec §2.1's list, reachable like the others
	'stellar:USDC',
];
/** Destinations that offer fixed delivery. */
const FIXED_DESTINATIONS = new Set(['lightning:BTC', 'spark:BTC', 'spark:USDB', 'base:USDC', 'ethereum:USDC', 'solana:USDC']);
const SPARK_TOKEN_DESTINATIONS = ['spark:BTC', 'spark:USDB', 'lightning:BTC', 'bitcoin:BTC'];
const EQUITY_DESTINATIONS = ['robinhood:ETH', 'ethereum:USDC', 'base:USDC', 'arbitrum:USDC'];
const LARGE_CATALOGUE_SIZE = 4096;
const SYNTHETIC_CHAINS = ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'bsc', 'avalanche', 'solana'];

const BTC_FAMILY = new Set(['BTC', 'WBTC', 'cbBTC', 'tBTC']);

function asset(chain: string, symbol: string, displayName: string, decimals: number, contract: string | null): CatalogueAsset {
	return {
		id: `${chain}:${symbol}`, chain, asset: symbol, displayName, decimals, contractAddress: contract,
		chainInfo: CHAIN_INFO[chain], equity: false, synthetic: false, to: [], exactOutTo: [], fixedTo: [],
	};
}

/** Exact-out is offered towards stablecoins and Bitcoin-family assets. */
function exactOutCapable(a: CatalogueAsset): boolean {
	return isStablecoin(a.asset) || BTC_FAMILY.has(a.asset);
}

function buildBase(): CatalogueAsset[] {
	const base = ASSET_ROWS.map(([chain, symbol, name, decimals, contract]) => asset(chain, symbol, name, decimals, contract));
	const equities = TOKENIZED_EQUITIES.map((symbol, i) => ({
		...asset('robinhood', symbol, `${EQUITY_NAMES[symbol] ?? symbol} (tokenized)`, 18, equityContract(i)),
		equity: true,
	}));
	const all = [...base, ...equities];
	const byId = new Map(all.map((a) => [a.id, a]));
	for (const a of all) {
		let to: 'all' | string[];
		if (ALL_SOURCES.has(a.id)) to = 'all';
		else if (NO_ROUTE_SOURCES.has(a.id)) to = [];
		else if (a.equity) to = EQUITY_DESTINATIONS;
		else if (a.chain === 'spark' && a.asset !== 'BTC' && a.asset !== 'USDB') to = SPARK_TOKEN_DESTINATIONS;
		else {
			const sameChain = all.filter((b) => b.chain === a.chain && !b.equity).map((b) => b.id);
			to = [...new Set([...HUBS, ...sameChain])];
		}
		if (to !== 'all') to = to.filter((id) => id !== a.id);
		// Stablecoins on Ethereum and Arbitrum also buy the tokenized equities (shown only when admitted).
		if (Array.isArray(to) && isStablecoin(a.asset) && (a.chain === 'ethereum' || a.chain === 'arbitrum')) {
			to = [...to, ...equities.map((e) => e.id)];
		}
		const except = EXCEPT_SOURCES[a.id] ?? [];
		const reachable = to === 'all' ? all.filter((b) => b.id !== a.id && !except.includes(b.id)).map((b) => b.id) : to;
		a.to = to;
		if (to === 'all' && except.length > 0) a.except = except;
		// Spark meme tokens trade exact-in and variable only: both lists stay empty.
		const memeToken = a.chain === 'spark' && a.asset !== 'BTC' && a.asset !== 'USDB';
		a.exactOutTo = memeToken ? [] : reachable.filter((id) => { const d = byId.get(id); return d !== undefined && exactOutCapable(d); });
		a.fixedTo = memeToken ? [] : reachable.filter((id) => FIXED_DESTINATIONS.has(id));
	}
	return all;
}

function equityContract(i: number): string {
	return `0x${(0xe0_0000 + i).toString(16).padStart(40, '0')}`;
}

function buildSynthetic(count: number): CatalogueAsset[] {
	const out: CatalogueAsset[] = [];
	for (let i = 1; i <= count; i++) {
		const chain = SYNTHETIC_CHAINS[i % SYNTHETIC_CHAINS.length];
		const symbol = `SBXT${String(i).padStart(4, '0')}`;
		const contract = chain === 'solana' ? `Sbxt${String(i).padStart(6, '0')}1111111111111111111111111111111` : `0x${i.toString(16).padStart(40, '5')}`;
		const a = asset(chain, symbol, `Sandbox load-test token ${i}`, 18, contract);
		a.synthetic = true;
		a.to = ['ethereum:USDC', 'base:USDC'];
		a.exactOutTo = ['base:USDC'];
		a.fixedTo = [];
		out.push(a);
	}
	return out;
}

/** The routes catalogue: listing (v1 and v2), lookups and route checks. */
export class Catalogue {
	private readonly base = buildBase();
	private synthetic: CatalogueAsset[] | undefined;
	private syntheticIndex: Map<string, CatalogueAsset> | undefined;
	private readonly index = new Map(this.base.map((a) => [a.id, a]));
	private readonly chainNames = new Set(this.base.map((a) => a.chain));

	/** Every entry visible to `view`. */
	visible(view: CatalogueView): CatalogueAsset[] {
		const base = this.base.filter((a) => !a.equity || (view.v2 && view.equityAdmission));
		if (!view.large) return base;
		return [...base, ...this.syntheticEntries(base.length)];
	}

	/** Whether the listing has the chain at all (the synthetic entries are on listed chains). */
	hasChain(chain: string): boolean {
		return this.chainNames.has(chain);
	}

	find(chain: string, symbol: string, view: CatalogueView): CatalogueAsset | undefined {
		const id = `${chain}:${symbol}`;
		if (view.large) this.syntheticEntries(this.base.length);
		const a = this.index.get(id) ?? (view.large ? this.syntheticIndex?.get(id) : undefined);
		if (!a || (a.equity && !view.equityAdmission)) return undefined;
		return a;
	}

	/** Whether `dst` is reachable from `src` in the given route list (spec §2.3). */
	reaches(src: CatalogueAsset, dst: CatalogueAsset, list: 'to' | 'exactOutTo' | 'fixedTo'): boolean {
		const targets = src[list];
		if (targets !== 'all') return targets.includes(dst.id);
		return src.id !== dst.id && !(list === 'to' && src.except?.includes(dst.id));
	}

	/** The listing as served (entries pointing at hidden assets are filtered out of route arrays). */
	listing(view: CatalogueView): RouteAssetEntry[] {
		const entries = this.visible(view);
		const hidden = view.v2 && view.equityAdmission ? undefined : new Set(this.base.filter((a) => a.equity).map((a) => a.id));
		const keep = (ids: string[]) => (hidden ? ids.filter((id) => !hidden.has(id)) : ids);
		return entries.map((a) => ({
			id: a.id,
			chain: a.chain,
			asset: a.asset,
			assetDisplayName: a.displayName,
			assetDisplaySymbol: a.asset,
			contractAddress: a.contractAddress,
			decimals: a.decimals,
			chainId: a.chainInfo.chainId,
			chainDisplayName: a.chainInfo.displayName,
			chainIcon: `/icons/chains/${a.chain}.svg`,
			route: { to: a.to === 'all' ? (a.except ? { except: [...a.except] } : 'all') : keep(a.to), exactOutTo: keep(a.exactOutTo), fixedTo: keep(a.fixedTo) },
		}));
	}

	private syntheticEntries(baseCount: number): CatalogueAsset[] {
		if (!this.synthetic) {
			this.synthetic = buildSynthetic(Math.max(0, LARGE_CATALOGUE_SIZE - baseCount + 64));
			this.syntheticIndex = new Map(this.synthetic.map((a) => [a.id, a]));
		}
		return this.synthetic;
	}
}
