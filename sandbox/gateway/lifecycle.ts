import { randomBytes, randomUUID } from 'node:crypto';

import { isFinalIntentStatus, type IntentStatus } from './spec';
import type { SandboxClock } from '../clock';
import type { AdmittedIntent } from './admission';
import { conflict } from './errors';
import { DEFAULT_REVERT_MESSAGE } from './markers';
import { encodeErrorString, encodePanic, formatRevertLine } from './revertLines';
import type { GatewayState, IntentRecord, RevertPlan } from './state';

const STATUS_RANK: Record<IntentStatus, number> = { ACCEPTED: 0, INCLUDED_PENDING_FINALITY: 1, FINALIZED: 2, EXPIRED: 2 };

const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

/**
 * The intent lifecycle of execution-gateway.md §3 on the sandbox clock: ACCEPTED -> deposit
 * oracle -> block inclusion (INCLUDED_PENDING_FINALITY, or EXPIRED on a revert) -> FINALIZED;
 * EXPIRED `deadline_exceeded` when expiresAt (wall clock) passes before inclusion.
 */
export class IntentLifecycle {
	private readonly timers = new Map<string, Set<NodeJS.Timeout>>();

	constructor(
		private readonly state: GatewayState,
		private readonly clock: SandboxClock,
	) {}

	/** Stores an admitted intent as ACCEPTED, soft-claims its transfers and starts its schedule. */
	accept(signer: string, admitted: AdmittedIntent): IntentRecord {
		const now = new Date(this.clock.now()).toISOString();
		const record: IntentRecord = {
			submissionId: randomUUID(),
			intentId: admitted.intentId,
			signer,
			kind: admitted.kind,
			status: 'ACCEPTED',
			statusMessage: null,
			executionTxHash: null,
			createdAt: now,
			updatedAt: now,
			transfers: admitted.transfers,
			nonce: admitted.nonce,
			expiresAt: admitted.expiresAt,
			recipient: admitted.recipient,
			signedTxHash: admitted.signedTxHash,
			evm: admitted.evm,
			plannedRevert: admitted.plannedRevert,
			history: [{ status: 'ACCEPTED', at: now, statusMessage: null }],
		};
		this.state.intents.set(record.submissionId, record);
		this.state.recordNonce(signer, record.nonce);
		this.state.softClaim(record);
		// expiresAt is wall-clock (§2.1): convert the real remaining time into a spec duration.
		const realRemaining = Math.max(0, record.expiresAt - this.clock.now());
		this.after(record, realRemaining * this.clock.timeScale, () => {
			if (record.status === 'ACCEPTED') this.expire(record, 'deadline_exceeded');
		});
		if (this.state.config.autoAdvance) this.after(record, this.state.config.schedule.oracleMs, () => this.runOracle(record));
		return record;
	}

	/** The deposit oracle confirms every referenced transfer (§1, §3) or the intent expires. */
	runOracle(record: IntentRecord): void {
		if (record.status !== 'ACCEPTED') return;
		for (const t of record.transfers) {
			const known = this.state.transfers.get(t.sparkTransferId.toLowerCase());
			if (!known) return this.expire(record, `oracle_failure: transfer ${t.sparkTransferId} not found`);
			if (known.assetType !== t.assetType || (t.tokenId ?? '').toLowerCase() !== (known.tokenId ?? '').toLowerCase()) {
				return this.expire(record, `oracle_failure: transfer ${t.sparkTransferId} asset mismatch`);
			}
			if (known.amount !== undefined && known.amount !== t.amount) {
				return this.expire(
					record,
					`oracle_failure: transfer ${t.sparkTransferId} amount mismatch (intent ${t.amount}, transfer ${known.amount})`,
				);
			}
		}
		if (this.state.config.autoAdvance) this.after(record, this.state.config.schedule.inclusionMs, () => this.include(record));
	}

	/** Sequencer inclusion: the transaction runs; a revert expires the intent with the revert line. */
	include(record: IntentRecord): void {
		if (record.status !== 'ACCEPTED') return;
		if (this.clock.now() >= record.expiresAt) return this.expire(record, 'deadline_exceeded');
		if (record.plannedRevert) return this.applyRevert(record, record.plannedRevert);
		record.executionTxHash = record.signedTxHash ?? randomHash();
		this.transition(record, 'INCLUDED_PENDING_FINALITY', null);
		if (this.state.config.autoAdvance) this.after(record, this.state.config.schedule.finalityMs, () => this.finalize(record));
	}

	/** Validator quorum: final; the transfers are spent for good (§3 transfer claims). */
	finalize(record: IntentRecord): void {
		if (record.status !== 'INCLUDED_PENDING_FINALITY') return;
		this.state.spendClaims(record);
		this.transition(record, 'FINALIZED', null);
		this.cancel(record);
	}

	expire(record: IntentRecord, statusMessage: string): void {
		if (isFinalIntentStatus(record.status)) return;
		this.state.releaseClaims(record);
		this.transition(record, 'EXPIRED', statusMessage);
		this.cancel(record);
	}

	/** EVM revert: EXPIRED with a revert line in the public-notes.md format. */
	applyRevert(record: IntentRecord, plan: RevertPlan): void {
		const output = plan.kind === 'error' ? encodeErrorString(plan.message) : encodePanic(plan.code);
		const txHash = record.signedTxHash ?? record.executionTxHash ?? randomHash();
		const dataBytes = record.evm ? BigInt((record.evm.data.length - 2) / 2) : 0n;
		const estimate = 21_000n + 16n * dataBytes + 2_000n;
		const gasUsed = record.evm && record.evm.gasLimit < estimate ? record.evm.gasLimit : estimate;
		this.expire(record, formatRevertLine({ intentIndex: 0, txHash, gasUsed, output }));
	}

	/** Control call: force a forward transition; the normal schedule continues unless `hold`. */
	advance(record: IntentRecord, status: IntentStatus, statusMessage?: string, hold = false): void {
		// §3: EXPIRED is reached from ACCEPTED only; an included intent already ran successfully.
		const expiringLate = status === 'EXPIRED' && record.status !== 'ACCEPTED';
		if (isFinalIntentStatus(record.status) || STATUS_RANK[status] <= STATUS_RANK[record.status] || expiringLate) {
			throw conflict('invalid_state', `cannot move intent from ${record.status} to ${status}`);
		}
		this.cancel(record);
		if (status === 'EXPIRED') return this.expire(record, statusMessage ?? 'expired by sandbox control call');
		record.executionTxHash ??= record.signedTxHash ?? randomHash();
		if (status === 'FINALIZED') {
			this.transition(record, 'INCLUDED_PENDING_FINALITY', null);
			return this.finalize(record);
		}
		this.transition(record, status, statusMessage ?? null);
		if (this.state.config.autoAdvance && !hold) this.after(record, this.state.config.schedule.finalityMs, () => this.finalize(record));
	}

	/** Control call: the intent's transaction reverts now. */
	revertNow(record: IntentRecord, plan: RevertPlan | undefined): void {
		// §3: a revert expires an ACCEPTED intent; INCLUDED_PENDING_FINALITY means the transaction ran successfully.
		if (record.status !== 'ACCEPTED') {
			throw conflict('invalid_state', `intent is already ${record.status}`);
		}
		this.applyRevert(record, plan ?? { kind: 'error', message: DEFAULT_REVERT_MESSAGE });
	}

	/** Cancels every pending timer (on close). */
	cancelAll(): void {
		for (const set of this.timers.values()) for (const t of set) this.clock.cancel(t);
		this.timers.clear();
	}

	private transition(record: IntentRecord, status: IntentStatus, statusMessage: string | null): void {
		const at = new Date(this.clock.now()).toISOString();
		record.status = status;
		record.statusMessage = statusMessage;
		record.updatedAt = at;
		record.history.push({ status, at, statusMessage });
	}

	private after(record: IntentRecord, specMs: number, fn: () => void): void {
		let set = this.timers.get(record.submissionId);
		if (!set) this.timers.set(record.submissionId, (set = new Set()));
		const timers = set;
		const timer = this.clock.schedule(specMs, () => {
			timers.delete(timer);
			fn();
		});
		timers.add(timer);
	}

	private cancel(record: IntentRecord): void {
		for (const t of this.timers.get(record.submissionId) ?? []) this.clock.cancel(t);
		this.timers.delete(record.submissionId);
	}
}
