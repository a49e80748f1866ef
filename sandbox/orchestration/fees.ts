import { affiliateIdOf } from './affiliateIds';
import type { Caller } from './context';
import { badRequest, forbidden } from './errors';
import { PLATFORM_FEE_BPS } from './pricing';
import type { FeePlan, FeePlanEntry } from './state';

/**
 * An inline app fee as requests carry it: the spec's `{recipient, feeBps, affiliateId?}` or the live
 * service's request form `{recipient, fee}` (public-notes; fee in bps). Records keep `feeBps`.
 */
export interface AppFeeInput {
	recipient: string;
	feeBps?: number;
	fee?: number;
	affiliateId?: string;
}

/** The fee inputs of a quote, onramp or address creation (spec §4.1). */
export interface FeeInput {
	appFees?: AppFeeInput[];
	affiliateId?: string;
	affiliateIds?: Array<string | { affiliateId: string; feeBps: number }>;
}

/** public-notes (fourth harvest): inline app fees add up to at most 10000 bps (100 %). */
const MAX_APP_FEE_BPS = 10_000;

/**
 * Builds the fee plan. Client keys may name a registered affiliate but not set fees (spec §5:
 * 403 `client_key_fee_fields_forbidden`); unknown or disabled affiliates are `unsupported_fee_plan`.
 */
export function resolveFeePlan(caller: Caller | undefined, input: FeeInput): FeePlan | undefined {
	// spec 4.1, 5: fee fields are app fees and affiliate fee overrides (`{affiliateId, feeBps}` items)
	const overrides = (input.affiliateIds ?? []).some((a) => typeof a !== 'string');
	if (input.appFees !== undefined || overrides) {
		if (caller?.type === 'client') {
			throw forbidden('client_key_fee_fields_forbidden', 'client keys cannot set appFees or affiliate fee overrides');
		}
		if (!caller) throw forbidden('forbidden', 'appFees and affiliate fee overrides need a server key');
	}
	// public-notes (fourth harvest): inline app fees go not together with affiliate fields
	if (input.appFees !== undefined && (input.affiliateId !== undefined || input.affiliateIds !== undefined)) {
		throw badRequest(`${input.affiliateIds !== undefined ? 'affiliateIds' : 'affiliateId'}: cannot be combined with appFees; send one or the other`);
	}
	const entries: FeePlanEntry[] = (input.appFees ?? []).map((f, n) => ({
		recipient: f.recipient,
		feeBps: appFeeBps(f, n),
		...(f.affiliateId ? { affiliateId: affiliateIdOf(f.affiliateId, `appFees[${n}].affiliateId`) } : {}),
	}));
	const refs = [...(input.affiliateIds ?? []), ...(input.affiliateId ? [input.affiliateId] : [])];
	for (const [n, ref] of refs.entries()) {
		// public-notes: affiliate IDs are trimmed and lowercased, then checked against the docs' pattern
		const id = affiliateIdOf(typeof ref === 'string' ? ref : ref.affiliateId, n < (input.affiliateIds?.length ?? 0) ? `affiliateIds[${n}]` : 'affiliateId');
		const affiliate = caller?.partner.affiliates.find((a) => a.affiliateId === id);
		if (!affiliate || !affiliate.enabled) {
			throw badRequest(`affiliate ${JSON.stringify(id)} is not a registered, enabled affiliate of this partner`, 'unsupported_fee_plan');
		}
		if (entries.some((e) => e.affiliateId === id)) continue;
		entries.push({ recipient: affiliate.payoutAddress, feeBps: typeof ref === 'string' ? affiliate.feeBps : ref.feeBps, affiliateId: id });
	}
	if (entries.length === 0) return undefined;
	const appBps = entries.reduce((sum, e) => sum + e.feeBps, 0);
	if (appBps > MAX_APP_FEE_BPS) throw badRequest(`${input.appFees ? 'appFees' : 'affiliateIds'}: the fees add up to ${appBps} bps; at most ${MAX_APP_FEE_BPS} are allowed`);
	// the sandbox's own rule: with its platform fee on top, nothing would be left to deliver
	if (PLATFORM_FEE_BPS + appBps >= 10_000) throw badRequest(`${input.appFees ? 'appFees' : 'affiliateIds'}: ${appBps} bps of fees and the ${PLATFORM_FEE_BPS} bps platform fee leave nothing to deliver`);
	return { platformFeeBps: PLATFORM_FEE_BPS, appFees: entries, totalFeeBps: PLATFORM_FEE_BPS + appBps };
}

/** The basis points of one app fee entry in either form; exactly one of `feeBps` and `fee`, a whole number 1..10000. */
function appFeeBps(entry: AppFeeInput, n: number): number {
	const given = [entry.feeBps, entry.fee].filter((v) => v !== undefined);
	if (given.length !== 1) throw badRequest(`appFees[${n}]: give the fee in basis points once, as feeBps or as fee`);
	const bps = given[0];
	if (!Number.isSafeInteger(bps) || (bps as number) < 1 || (bps as number) > 10_000) throw badRequest(`appFees[${n}]: the fee must be a whole number of basis points from 1 to 10000`);
	return bps as number;
}

export function totalFeeBps(plan: FeePlan | undefined): number {
	return plan ? plan.totalFeeBps : PLATFORM_FEE_BPS;
}
