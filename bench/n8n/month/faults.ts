/**
 * The request faults of the month at the sandbox (POST /sandbox/faults), and how many of them
 * actually hit a request: a rule is used up (and leaves the sandbox's list) once it applied as
 * often as armed; one still listed hit `applied` times.
 */
import type { FaultArm, FaultKind } from './plan';

export interface Armed extends FaultArm {
	service: 'orchestration' | 'gateway';
	id: number;
	times: number;
	day: number;
}

export interface ListedRule {
	id: number;
	applied: number;
}

export interface FaultFigures {
	armed: number;
	hit: number;
	/** Hits per endpoint and mode, e.g. "POST /v1/orchestration/quote dropAnswer". */
	byRule: Record<string, number>;
}

/** One armed rule: the day it was armed, what it does, how often it was armed and how often it hit. */
export interface RuleHit {
	day: number;
	kind: FaultKind;
	rule: string;
	armed: number;
	hit: number;
}

export interface FaultReport {
	byKind: Record<FaultKind, FaultFigures>;
	rules: RuleHit[];
}

/** The sandbox's rule lists (GET /sandbox/faults): the rules not used up yet, each with its hits so far. */
export interface ListedFaults {
	faults: ListedRule[];
	gatewayFaults: ListedRule[];
}

const ruleName = (a: Armed) => `${a.service === 'gateway' ? 'gateway ' : ''}${String(a.rule.method)} ${String(a.rule.path)} ${String(a.rule.mode)}${a.rule.status ? ` ${String(a.rule.status)}` : ''}`;

/** Each armed rule's hits (a rule gone from the list was used up: it hit as often as armed), and the sums per kind. */
export function hitsOf(armed: Armed[], listed: ListedFaults): FaultReport {
	const left = new Map<string, number>();
	for (const r of listed.faults) left.set(`orchestration|${r.id}`, r.applied);
	for (const r of listed.gatewayFaults) left.set(`gateway|${r.id}`, r.applied);
	const byKind = {} as Record<FaultKind, FaultFigures>;
	const rules: RuleHit[] = [];
	for (const a of armed) {
		const applied = left.get(`${a.service}|${a.id}`);
		const hit = applied === undefined ? a.times : applied;
		const f = (byKind[a.kind] ??= { armed: 0, hit: 0, byRule: {} });
		f.armed += a.times;
		f.hit += hit;
		f.byRule[ruleName(a)] = (f.byRule[ruleName(a)] ?? 0) + hit;
		rules.push({ day: a.day, kind: a.kind, rule: ruleName(a), armed: a.times, hit });
	}
	return { byKind, rules };
}

export class FaultBook {
	private readonly armed: Armed[] = [];
	private final?: FaultReport;

	constructor(private readonly orchestrationUrl: string) {}

	async arm(arms: FaultArm[], day: number): Promise<void> {
		for (const arm of arms) {
			const service = arm.rule.service === 'gateway' ? 'gateway' : 'orchestration';
			const res = await fetch(`${this.orchestrationUrl}/sandbox/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ times: 1, ...arm.rule }),
			});
			const text = await res.text();
			if (res.status !== 201) throw new Error(`arming ${JSON.stringify(arm.rule)}: ${res.status} ${text}`);
			const { id } = JSON.parse(text) as { id: number };
			this.armed.push({ ...arm, service, id, times: Number(arm.rule.times ?? 1), day });
		}
	}

	/** Armed and hit per rule and per kind, from the sandbox's list of rules not used up yet. */
	async figures(): Promise<FaultReport> {
		if (this.final) return this.final;
		return hitsOf(this.armed, (await (await fetch(`${this.orchestrationUrl}/sandbox/faults`)).json()) as ListedFaults);
	}

	/**
	 * Counts the hits, then removes the rules not used up (before the month's last reconciliation
	 * and the measurement); the counts are kept.
	 */
	async disarm(): Promise<FaultReport> {
		this.final = await this.figures();
		await fetch(`${this.orchestrationUrl}/sandbox/faults`, { method: 'DELETE' });
		return this.final;
	}
}
