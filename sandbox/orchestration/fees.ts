import { feeFieldOf } from '../../nodes/shared/orchestration/quotePlan';
import type { Caller } from './context';
import { badRequest, forbidden } from './errors';
import { PLATFORM_FEE_BPS } from './pricing';
import type { FeePlan, FeePlanEntry } from './state';

/** The fee inputs of a quote, onramp or address creation (spec §4.1). */
export interface FeeInput {
	appFees?: Array<{ recipient: string; feeBps: number; affiliateId?: string }>;
	affiliateId?: string;
	affiliateIds?: Array<string | { affiliateId: string; feeBps: number }>;
}

/** App and affiliate fees beyond this total are refused (the platform fee comes on top). */
const MAX_APP_FEE_BPS = 5000;

/**
 * Builds the fee plan. Client keys may name a registered affiliate but not set fees (spec §5:
 * 403 `client_key_fee_fields_forbidden`); unknown or disabled affiliates are `unsupported_fee_plan`.
 */
export function resolveFeePlan(caller: Caller | undefined, input: FeeInput): FeePlan | undefined {
	// the client's own rule (nodes/shared): app fees or affiliate fee overrides
	if (feeFieldOf(input) !== undefined) {
		if (caller?.type === 'client') {
			throw forbidden('client_key_fee_fields_forbidden', 'client keys cannot set appFees or affiliate fee overrides');
		}
		if (!caller) throw forbidden('forbidden', 'appFees and affiliate fee overrides need a server key');
	}
	const entries: FeePlanEntry[] = (input.appFees ?? []).map((f) => ({ recipient: f.recipient, feeBps: f.feeBps, ...(f.affiliateId ? { affiliateId: f.affiliateId } : {}) }));
	const refs = [...(input.affiliateIds ?? []), ...(input.affiliateId ? [input.affiliateId] : [])];
	for (const ref of refs) {
		const id = typeof ref === 'string' ? ref : ref.affiliateId;
		const affiliate = caller?.partner.affiliates.find((a) => a.affiliateId === id);
		if (!affiliate || !affiliate.enabled) {
			throw badRequest(`affiliate ${JSON.stringify(id)} is not a registered, enabled affiliate of this partner`, 'unsupported_fee_plan');
		}
		if (entries.some((e) => e.affiliateId === id)) continue;
		entries.push({ recipient: affiliate.payoutAddress, feeBps: typeof ref === 'string' ? affiliate.feeBps : ref.feeBps, affiliateId: id });
	}
	if (entries.length === 0) return undefined;
	const appBps = entries.reduce((sum, e) => sum + e.feeBps, 0);
	if (appBps > MAX_APP_FEE_BPS) throw badRequest(`app and affiliate fees add up to ${appBps} bps; at most ${MAX_APP_FEE_BPS} are allowed`, 'unsupported_fee_plan');
	return { platformFeeBps: PLATFORM_FEE_BPS, appFees: entries, totalFeeBps: PLATFORM_FEE_BPS + appBps };
}

export function totalFeeBps(plan: FeePlan | undefined): number {
	return plan ? plan.totalFeeBps : PLATFORM_FEE_BPS;
}
