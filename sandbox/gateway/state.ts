import type { IntentStatus } from './spec';

/** Spec-time delays of the intent lifecycle (execution-gateway.md §3), scaled by the clock. */
export interface GatewaySchedule {
	/** ACCEPTED -> deposit oracle check of every referenced transfer. */
	oracleMs: number;
	/** Oracle confirmation -> block inclusion (INCLUDED_PENDING_FINALITY or a revert). */
	inclusionMs: number;
	/** Inclusion -> validator quorum (FINALIZED). */
	finalityMs: number;
}

export const DEFAULT_SCHEDULE: GatewaySchedule = { oracleMs: 2_000, inclusionMs: 3_000, finalityMs: 4_000 };

export interface GatewayConfig {
	chainId: number;
	paused: boolean;
	minDepositSats: number;
	depositAddress: string;
	contractAddress: string;
	sparkNetwork: string;
	tokenTtlMs: number;
	schedule: GatewaySchedule;
	/** When false, intents stay where they are until a control call moves them. */
	autoAdvance: boolean;
	/** Answer statuses in lower case (`accepted`, `finalized`), as the live service does. */
	lowercaseStatuses?: boolean;
	/** Admit intents while paused: `paused` is then advisory, as on the live service. */
	admitWhenPaused?: boolean;
}

/** A status as the configured gateway spells it on the wire. */
export function wireStatus(config: GatewayConfig, status: string): string {
	return config.lowercaseStatuses ? status.toLowerCase() : status;
}

export type AssetKind = 'btc' | 'token';

export interface IntentTransfer {
	sparkTransferId: string;
	assetType: AssetKind;
	tokenId?: string;
	amount: bigint;
}

export type RevertPlan = { kind: 'error'; message: string } | { kind: 'panic'; code: bigint };

export interface IntentRecord {
	submissionId: string;
	intentId: string;
	/** Compressed public key of the authenticated submitter. */
	signer: string;
	kind: 'deposit' | 'execute';
	status: IntentStatus;
	statusMessage: string | null;
	executionTxHash: string | null;
	createdAt: string;
	updatedAt: string;
	transfers: IntentTransfer[];
	nonce: string;
	expiresAt: number;
	/** Deposit recipient: the `recipient` field, or the recovered signer of `evmTransaction` (§2.1). */
	recipient: string;
	signedTxHash?: string;
	evm?: { from: string; to: string | null; data: string; gasLimit: bigint };
	/** Revert to apply at inclusion (set by a calldata marker). */
	plannedRevert?: RevertPlan;
	history: Array<{ status: IntentStatus; at: string; statusMessage: string | null }>;
}

export interface RegisteredTransfer {
	sparkTransferId: string;
	assetType: AssetKind;
	tokenId?: string;
	/** Amount the oracle will confirm; undefined confirms any amount. */
	amount?: bigint;
	registeredAt: string;
}

export interface Challenge {
	challenge: string;
	challengeString: string;
	expiresAt: number;
}

export interface AccessToken {
	publicKey: string;
	expiresAt: number;
}

export interface TransferClaim {
	submissionId: string;
	/** Soft claims block concurrent submissions; spent claims are final (§3 "Transfer claims"). */
	spent: boolean;
}

/** The gateway emulator's whole memory. Transfer ids are keyed in lowercase (hex is case-free). */
export class GatewayState {
	readonly intents = new Map<string, IntentRecord>();
	readonly transfers = new Map<string, RegisteredTransfer>();
	readonly challenges = new Map<string, Challenge[]>();
	readonly tokens = new Map<string, AccessToken>();
	readonly noncesBySigner = new Map<string, Set<string>>();
	readonly claims = new Map<string, TransferClaim>();
	readonly seededSigners: Array<{ publicKey: string; address: string }> = [];

	constructor(readonly config: GatewayConfig) {}

	static transferKey(id: string): string {
		return id.toLowerCase();
	}

	hasNonce(signer: string, nonce: string): boolean {
		return this.noncesBySigner.get(signer)?.has(nonce) ?? false;
	}

	recordNonce(signer: string, nonce: string): void {
		let set = this.noncesBySigner.get(signer);
		if (!set) this.noncesBySigner.set(signer, (set = new Set()));
		set.add(nonce);
	}

	claimOf(transferId: string): TransferClaim | undefined {
		return this.claims.get(GatewayState.transferKey(transferId));
	}

	softClaim(record: IntentRecord): void {
		for (const t of record.transfers) {
			this.claims.set(GatewayState.transferKey(t.sparkTransferId), { submissionId: record.submissionId, spent: false });
		}
	}

	/** Drops this intent's soft claims (on rejection or expiry). */
	releaseClaims(record: IntentRecord): void {
		for (const t of record.transfers) {
			const key = GatewayState.transferKey(t.sparkTransferId);
			const claim = this.claims.get(key);
			if (claim && claim.submissionId === record.submissionId && !claim.spent) this.claims.delete(key);
		}
	}

	/** Marks this intent's transfers as spent: at most one finalized intent per transfer (§8). */
	spendClaims(record: IntentRecord): void {
		for (const t of record.transfers) {
			this.claims.set(GatewayState.transferKey(t.sparkTransferId), { submissionId: record.submissionId, spent: true });
		}
	}
}

/** §2.3 intent status response. */
export function intentStatusBody(r: IntentRecord) {
	return {
		submissionId: r.submissionId,
		intentId: r.intentId,
		status: r.status,
		statusMessage: r.statusMessage,
		executionTxHash: r.executionTxHash,
		createdAt: r.createdAt,
		updatedAt: r.updatedAt,
	};
}

/** The control listing: status fields plus what the sandbox knows (amounts as strings). */
export function intentControlBody(r: IntentRecord) {
	return {
		...intentStatusBody(r),
		kind: r.kind,
		signer: r.signer,
		recipient: r.recipient,
		nonce: r.nonce,
		expiresAt: r.expiresAt,
		signedTxHash: r.signedTxHash ?? null,
		plannedRevert: r.plannedRevert
			? r.plannedRevert.kind === 'error'
				? r.plannedRevert
				: { kind: 'panic', code: `0x${r.plannedRevert.code.toString(16).padStart(2, '0')}` }
			: null,
		transfers: r.transfers.map((t) => ({ ...t, amount: t.amount.toString() })),
		history: r.history,
	};
}

export function registeredTransferBody(t: RegisteredTransfer) {
	return { ...t, tokenId: t.tokenId ?? null, amount: t.amount === undefined ? null : t.amount.toString() };
}
