import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHAINS, CLIENT_KEY_SCOPES, ORIGIN_MODES } from './orchestration/spec';
import defaults from './config.default.json';
import { FaultRuleSchema } from './faults';

/** Seeds and runtime switches of the sandbox (documented in docs/sandbox.md). */
const chain = z.string().refine((c) => (CHAINS as readonly string[]).includes(c), 'unknown chain');
const scope = z.string().refine((s) => (CLIENT_KEY_SCOPES as readonly string[]).includes(s), 'unknown scope');
const originMode = z.string().refine((m) => (ORIGIN_MODES as readonly string[]).includes(m), 'unknown origin mode');

const SeedKeySchema = z.object({
	key: z.string().regex(/^fnp?_[A-Za-z0-9_]+$/, 'keys start with fn_ (server) or fnp_ (client)'),
	label: z.string().default(''),
	type: z.enum(['server', 'client']),
	partnerId: z.string().min(1),
	scopes: z.array(scope).default([]),
	originMode: originMode.default('server'),
	allowedOrigins: z.array(z.string()).default([]),
	disabled: z.boolean().default(false),
	affiliateId: z.string().optional(),
});

const AffiliateSchema = z.object({
	affiliateId: z.string().min(1),
	feeBps: z.number().int().min(0).max(10_000),
	payoutChain: chain,
	payoutAsset: z.string().min(1),
	payoutAddress: z.string().min(1),
	enabled: z.boolean(),
});

const AccumulationSeedSchema = z.object({
	accumulationAddressId: z.string().min(1),
	label: z.string(),
	sourceChain: chain,
	sourceAsset: z.string().min(1),
	destinationAsset: z.enum(['BTC', 'USDB']),
	recipientSparkAddress: z.string().min(1),
	feeBps: z.number().int(),
	slippageBps: z.number().int(),
	enabled: z.boolean(),
	depositAddress: z.string().min(1),
});

const LiquidationSeedSchema = z.object({
	liquidationAddressId: z.string().min(1),
	label: z.string(),
	sparkAddress: z.string().min(1),
	l1DepositAddress: z.string().min(1),
	destination: z.object({ chain, asset: z.string().min(1), address: z.string().min(1) }),
	feeBps: z.number().int(),
	slippageBps: z.number().int(),
	enabled: z.boolean(),
});

const PartnerSchema = z.object({
	partnerId: z.string().min(1),
	name: z.string(),
	accountStatus: z.enum(['approved', 'pending', 'rejected']),
	affiliates: z.array(AffiliateSchema).default([]),
	accumulationAddresses: z.array(AccumulationSeedSchema).default([]),
	liquidationAddresses: z.array(LiquidationSeedSchema).default([]),
});

const LimitPairSchema = z.object({ perKey: z.number().int().min(1), perKeyIp: z.number().int().min(1) });

export const SwitchesSchema = z.object({
	approvalEnforced: z.boolean(),
	turnstile: z.object({ enabled: z.boolean(), validToken: z.string().min(1) }),
	rateLimits: z.object({
		enabled: z.boolean(),
		windowMs: z.number().int().min(1),
		quote: LimitPairSchema,
		submit: LimitPairSchema,
		/** Onramp is limited by itself, with submit's numbers (public-notes: "submit/onramp 120 and 10"). */
		onramp: LimitPairSchema,
		/** Status, and the estimate when a key is presented ("served estimate and status 6000/1200"). */
		status: LimitPairSchema.default({ perKey: 6000, perKeyIp: 1200 }),
		estimate: LimitPairSchema.default({ perKey: 6000, perKeyIp: 1200 }),
		/** Accumulation create and reindex, liquidation create (60/5), each endpoint its own counters. */
		addresses: LimitPairSchema.default({ perKey: 60, perKeyIp: 5 }),
		/** The IP limiters (public-notes' table; the event stream's is `sseConnections`). */
		perIp: z
			.object({
				routes: z.number().int().min(1),
				limits: z.number().int().min(1),
				estimate: z.number().int().min(1),
				orderLookup: z.number().int().min(1),
				claims: z.number().int().min(1),
			})
			.default({ routes: 60, limits: 60, estimate: 120, orderLookup: 120, claims: 30 }),
		/** A partner override that limits server keys too (off: only client keys are limited). */
		serverKeys: z.boolean(),
	}),
	duplicateDeliveries: z.boolean(),
	/**
	 * The webhook envelope (public-notes, fourth harvest): `timestamp` at the event (the same bytes on
	 * every attempt, spec §6 rule 2) or at each delivery attempt (the live service's); `updatedAt` in
	 * `data` (spec §6's duplicate key) or left out (the docs' examples).
	 */
	webhookEnvelope: z
		.object({ timestamp: z.enum(['event', 'delivery']).default('event'), updatedAt: z.boolean().default(true) })
		.default({ timestamp: 'event', updatedAt: true }),
	/** Divides the webhook retry delays on top of the clock's scale (fault suites: retries within minutes). */
	deliveryRetryDivisor: z.number().int().min(1).optional(),
	largeCatalogue: z.boolean(),
	statusShape: z.enum(['nested', 'flat']),
	tokenizedEquityAdmission: z.record(z.boolean()),
	/** Partners billed by invoice (public-notes, fourth harvest): their quotes show `feeAmount: "0"`, the platform fee goes to a fee invoice. */
	invoiceBilling: z.record(z.boolean()).default({}),
	/** How GET /v1/partner/dashboard/fee-invoices answers (the docs show no shape): `{invoices}`, `{data}` or a bare array, with or without `nextOffset`. */
	feeInvoices: z
		.object({ shape: z.enum(['invoices', 'data', 'array']).default('invoices'), nextOffset: z.boolean().default(true) })
		.default({ shape: 'invoices', nextOffset: true }),
	faults: z.array(FaultRuleSchema),
	processingDelayMs: z.number().int().min(0),
	orderStepMs: z.number().int().min(0),
	autoAdvance: z.boolean(),
	/** Heartbeat interval of the event stream in spec ms (public-notes: 15 s when unset). */
	sseHeartbeatMs: z.number().int().min(1).optional(),
	/** public-notes: event-stream connection attempts per IP and window (30 a minute), for every key; the window is scaled. */
	sseConnections: z
		.object({ enabled: z.boolean(), perIp: z.number().int().min(1), windowMs: z.number().int().min(1) })
		.default({ enabled: true, perIp: 30, windowMs: 60_000 }),
	/** How long a ZeroConf offer stays open (spec ms, scaled; public-notes `zeroconfOffer.expiresAt`). */
	zeroconfOfferMs: z.number().int().min(1).default(600_000),
	/** How a ZeroConf offer writes `confirmationProbability` (public-notes, fourth harvest: its type is not shown). */
	zeroconfProbabilityAs: z.enum(['number', 'string']).default('number'),
	/** How long an affiliate claim's payout attempt takes (spec ms, scaled); claims move only while autoAdvance is on. */
	claimPayoutMs: z.number().int().min(0).default(20_000),
	/** How claims end: paid (txHash), failed (errorMessage), or one retried attempt (errorMessage + nextAttemptAt) then paid. */
	claimOutcome: z.enum(['paid', 'failed', 'retry']).default('paid'),
	/** How many answered requests `GET /sandbox/requests` keeps (the oldest dropped first). */
	recordedRequests: z.number().int().min(1).default(5000),
});

export const SandboxConfigSchema = z.object({
	partners: z.array(PartnerSchema),
	keys: z.array(SeedKeySchema),
	gateway: z.object({
		chainId: z.number().int().min(1),
		privateKeys: z.array(z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/)),
	}),
	switches: SwitchesSchema,
});

export type SeedKey = z.infer<typeof SeedKeySchema>;
export type SeedPartner = z.infer<typeof PartnerSchema>;
export type SeedAffiliate = z.infer<typeof AffiliateSchema>;
export type AccumulationSeed = z.infer<typeof AccumulationSeedSchema>;
export type LiquidationSeed = z.infer<typeof LiquidationSeedSchema>;
export type Switches = z.infer<typeof SwitchesSchema>;
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

type DeepPartial<T> = T extends unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
type SeedsInput = Omit<z.input<typeof SandboxConfigSchema>, 'switches'>;

/** Switches as overrides take them: any subset, at any depth. */
export type SwitchesInput = DeepPartial<Switches>;

/** A config override: any top-level part replaces the default; `switches` merge deeply. */
export type SandboxConfigInput = Partial<SeedsInput> & { switches?: SwitchesInput };

/** Default seeds, then the file at `configPath`, then `override`; validated as a whole. */
export function loadConfig(configPath?: string, override?: SandboxConfigInput): SandboxConfig {
	let merged = structuredClone(defaults) as unknown as SandboxConfigInput;
	if (configPath) merged = mergeConfig(merged, JSON.parse(readFileSync(configPath, 'utf8')) as SandboxConfigInput);
	merged = mergeConfig(merged, override);
	const parsed = SandboxConfigSchema.safeParse(merged);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new Error(`invalid sandbox config at ${issue.path.join('.')}: ${issue.message}`);
	}
	const partnerIds = new Set(parsed.data.partners.map((p) => p.partnerId));
	for (const k of parsed.data.keys) {
		if (!partnerIds.has(k.partnerId)) throw new Error(`sandbox config: a key names unknown partner ${k.partnerId}`);
		if ((k.type === 'server') !== k.key.startsWith('fn_')) {
			throw new Error(`sandbox config: ${k.type} keys start with ${k.type === 'server' ? 'fn_' : 'fnp_'}`);
		}
	}
	return parsed.data;
}

function mergeConfig(base: SandboxConfigInput, over: SandboxConfigInput | undefined): SandboxConfigInput {
	if (!over) return base;
	return { ...base, ...over, switches: mergeSwitches(base.switches ?? {}, over.switches ?? {}) };
}

/** Switch objects merge deeply so `{turnstile: {enabled: true}}` keeps `validToken`; arrays replace. */
export function mergeSwitches<T extends object>(base: T, over: object): T {
	const out = Object.assign({}, base) as Record<string, unknown>;
	for (const [name, value] of Object.entries(over)) {
		const prev = out[name];
		out[name] = isPlainObject(prev) && isPlainObject(value) ? mergeSwitches(prev, value) : value;
	}
	return out as unknown as T;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}
