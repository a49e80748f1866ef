/**
 * The plan of Intent > Execute (execution-gateway.md §2.1, §2.4, §8): every rule the client can
 * check, from the item's inputs alone and then against Network Info (§2.3a), before anything is
 * signed or sent. Inputs are normalised once, the signed EVM transaction decoded once, and the
 * canonical message built once the chain id, nonce and expiry are final.
 */
import {
	assertOneAction,
	buildTransfers,
	decodeEvmTransaction,
	serializeCanonicalBody,
} from './canonical';
import {
	normalizeWireIntent,
	validateChainId,
	validateExpiresAt,
	validateNonce,
	validateRecipient,
	type CanonicalAction,
	type CanonicalTransfer,
	type WireDeposit,
	type WireIntent,
} from './intentFields';
import type { DecodedEip1559 } from './eip1559';
import { ProtocolError } from '../errors';
import type { NetworkInfo } from './responses';

export type IntentAction = { recipient: string } | { evmTransaction: string };

/** What the item asks for; chainId, nonce and expiresAt only when the user set them. */
export interface IntentInput {
	deposits: WireDeposit[];
	action: IntentAction;
	chainId?: number;
	nonce?: string;
	expiresAt?: number;
}

export interface IntentPlan {
	/** Normalised as the public client does, so the signed message and the request agree. */
	deposits: WireDeposit[];
	action: IntentAction;
	transfers: CanonicalTransfer[];
	canonicalAction: CanonicalAction;
	/** The decoded signed transaction of an execute action. */
	evm?: DecodedEip1559;
	chainId?: number;
	nonce?: string;
	expiresAt?: number;
}

/** The header of the message: known only once Network Info, the nonce and the expiry are. */
export interface IntentHeader {
	chainId: number;
	nonce: string;
	expiresAt: number;
}

function planAction(action: IntentAction): {
	canonicalAction: CanonicalAction;
	evm?: DecodedEip1559;
} {
	if ('recipient' in action)
		return { canonicalAction: { type: 'deposit', recipient: validateRecipient(action.recipient) } };
	const evm = decodeEvmTransaction(action.evmTransaction);
	return { canonicalAction: { type: 'execute', signedTxHash: evm.hash }, evm };
}

/** §3: a transfer funds one intent, so the same id twice in one intent can never be admitted. */
export function assertDistinctTransfers(transfers: CanonicalTransfer[]): void {
	const seen = new Map<string, number>();
	transfers.forEach((t, k) => {
		const first = seen.get(t.transferId.toLowerCase());
		if (first !== undefined) {
			const field = `deposits[${k}].sparkTransferId`;
			throw new ProtocolError(`repeats deposits[${first}]: each Spark transfer may appear once`, {
				field,
				reason: 'duplicate_transfer_id',
			});
		}
		seen.set(t.transferId.toLowerCase(), k);
	});
}

/** Checks and normalises the item's intent; throws the core's error naming the field. */
export function planIntent(input: IntentInput, nowMs: number): IntentPlan {
	if (input.expiresAt !== undefined) validateExpiresAt(input.expiresAt, nowMs);
	const normalized: Pick<WireIntent, 'deposits' | 'recipient' | 'evmTransaction'> =
		normalizeWireIntent({ deposits: input.deposits, ...input.action });
	const action: IntentAction =
		'recipient' in input.action
			? { recipient: normalized.recipient as string }
			: { evmTransaction: normalized.evmTransaction as string };
	const chainId = input.chainId === undefined ? undefined : validateChainId(input.chainId);
	const transfers = buildTransfers(normalized.deposits);
	assertOneAction(action);
	const planned = planAction(action);
	const nonce = input.nonce === undefined ? undefined : validateNonce(input.nonce);
	assertDistinctTransfers(transfers);
	return {
		deposits: normalized.deposits,
		action,
		transfers,
		...planned,
		chainId,
		nonce,
		expiresAt: input.expiresAt,
	};
}

/** §2.3a / §8: another chain, or a BTC amount under minDepositSats, never leaves. */
export function checkAgainstNetwork(plan: IntentPlan, info: NetworkInfo): void {
	const chainId = info.execution.chainId;
	if (plan.chainId !== undefined && plan.chainId !== chainId) {
		throw new ProtocolError(
			`is ${plan.chainId} but the gateway's execution chain ID (Network Info) is ${chainId}`,
			{ field: 'chainId', reason: 'chain_id_mismatch' },
		);
	}
	if (plan.evm && plan.evm.chainId !== BigInt(chainId)) {
		throw new ProtocolError(
			`is signed for chain ${plan.evm.chainId}, but the gateway executes on chain ${chainId}`,
			{ field: 'evmTransaction', reason: 'invalid_evm_transaction' },
		);
	}
	assertMinDeposits(plan.transfers, info.minDepositSats);
}

/** §8: every BTC deposit is at least minDepositSats (the minimum is in sats, so tokens are exempt). */
export function assertMinDeposits(transfers: CanonicalTransfer[], minDepositSats: number): void {
	const min = BigInt(minDepositSats);
	transfers.forEach((t, k) => {
		if (t.assetType === 'NativeSats' && t.amountSats < min) {
			const message = `${t.amountSats} sats is below the gateway minimum of ${min} sats (Network Info: minDepositSats)`;
			throw new ProtocolError(message, {
				field: `deposits[${k}].amount`,
				reason: 'below_min_deposit',
			});
		}
	});
}

/** The §2.4 text of the plan on `chainId` before nonce and expiry: it seeds the default nonce and is closed to sign. */
export function canonicalBodyOf(plan: IntentPlan, chainId: number): string {
	return serializeCanonicalBody({
		chainId,
		transfers: plan.transfers,
		action: plan.canonicalAction,
	});
}

/** The §2.1 request of the plan under a header (signature added by the caller). */
export function wireIntent(plan: IntentPlan, header: IntentHeader): WireIntent {
	return {
		chainId: header.chainId,
		deposits: plan.deposits,
		...plan.action,
		nonce: header.nonce,
		expiresAt: header.expiresAt,
	};
}
