/**
 * The request faults of the month at the sandbox (POST /sandbox/faults), and how many of them
 * actually hit a request: a rule is used up (and leaves the sandbox's list) once it applied as
 * often as armed; one still listed hit `applied` times.
 */
import type { FaultArm, FaultKind } from './plan';

interface Armed extends FaultArm {
	service: 'orchestration' | 'gateway';
	id: number;
	times: number;
	day: number;
}

interface ListedRule {
	id: number;
	applied: number;
}

export interface FaultFigures {
	armed: number;
	hit: number;
	/** Hits per endpoint and mode, e.g. "POST /v1/orchestration/quote dropAnswer". */
	byRule: Record<string, number>;
}

export class FaultBook {
	private readonly armed: Armed[] = [];
	private final?: Record<FaultKind, FaultFigures>;

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

	/** Armed and hit per kind, from the sandbox's list of rules not used up yet. */
	async figures(): Promise<Record<FaultKind, FaultFigures>> {
		if (this.final) return this.final;
		const listed = (await (await fetch(`${this.orchestrationUrl}/sandbox/faults`)).json()) as { faults: ListedRule[]; gatewayFaults: ListedRule[] };
		const left = new Map<string, number>();
		for (const r of listed.faults) left.set(`orchestration|${r.id}`, r.applied);
		for (const r of listed.gatewayFaults) left.set(`gateway|${r.id}`, r.applied);
		const out = {} as Record<FaultKind, FaultFigures>;
		for (const a of this.armed) {
			const applied = left.get(`${a.service}|${a.id}`);
			const hit = applied === undefined ? a.times : applied;
			const f = (out[a.kind] ??= { armed: 0, hit: 0, byRule: {} });
			f.armed += a.times;
			f.hit += hit;
			const rule = `${a.service === 'gateway' ? 'gateway ' : ''}${String(a.rule.method)} ${String(a.rule.path)} ${String(a.rule.mode)}${a.rule.status ? ` ${String(a.rule.status)}` : ''}`;
			f.byRule[rule] = (f.byRule[rule] ?? 0) + hit;
		}
		return out;
	}

	/**
	 * Counts the hits, then removes the rules not used up (before the month's last reconciliation
	 * and the measurement); the counts are kept.
	 */
	async disarm(): Promise<Record<FaultKind, FaultFigures>> {
		this.final = await this.figures();
		await fetch(`${this.orchestrationUrl}/sandbox/faults`, { method: 'DELETE' });
		return this.final;
	}
}
