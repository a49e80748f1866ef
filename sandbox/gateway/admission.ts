import { conflict, rejectAdmission } from './errors';
import {
	canonicalMessage,
	expiresAtOf,
	nonceOf,
	Problem,
	recipientOf,
	sha256,
	signedEip1559Of,
	tokenIdOf,
	transferIdOf,
	u64Of,
	verifiesDer,
	type IntentMessage,
	type SignedTransaction,
} from './intent';
import { bytesToHex } from './hex';
import { revertPlanFromCalldata } from './markers';
import type { GatewayState, IntentRecord, IntentTransfer } from './state';

/** What admission hands to the lifecycle once every check of §2.1/§7/§8 passed: the record's admitted fields. */
export type AdmittedIntent = Pick<
	IntentRecord,
	'intentId' | 'kind' | 'transfers' | 'nonce' | 'expiresAt' | 'recipient' | 'signedTxHash' | 'evm' | 'plannedRevert'
>;

type Body = Record<string, unknown>;

/** Runs one field rule (intent.ts) and answers its Problem under `code`. */
function check<T>(code: string, fn: () => T): T {
	try {
		return fn();
	} catch (e) {
		if (e instanceof Problem) throw rejectAdmission(code, e.message);
		throw e;
	}
}

function isPresent(value: unknown): boolean {
	return value !== undefined && value !== null;
}

function readTransfers(body: Body): IntentTransfer[] {
	if (!Array.isArray(body.deposits)) throw rejectAdmission('invalid_request', 'deposits must be an array (it may be empty)');
	return body.deposits.map((raw: unknown, i): IntentTransfer => {
		const at = `deposits[${i}]`;
		if (typeof raw !== 'object' || raw === null) throw rejectAdmission('invalid_request', `${at} must be an object`);
		const d = raw as Body;
		const asset = (typeof d.asset === 'object' && d.asset !== null ? d.asset : {}) as Body;
		if (asset.type !== 'btc' && asset.type !== 'token') {
			throw rejectAdmission('invalid_asset', `${at}.asset must be {"type":"btc"} or {"type":"token","tokenId":<64 hex>}`);
		}
		const assetType = asset.type;
		const sparkTransferId = check('invalid_transfer_id', () => transferIdOf(d.sparkTransferId, assetType, `${at}.sparkTransferId`));
		const tokenId = assetType === 'token' ? check('invalid_token_id', () => tokenIdOf(asset.tokenId, `${at}.asset.tokenId`)) : undefined;
		const amountRaw = d.amount;
		if (typeof amountRaw !== 'string' && typeof amountRaw !== 'number' && typeof amountRaw !== 'bigint') {
			throw rejectAdmission('invalid_amount', `${at}.amount must be an unsigned 64-bit integer`);
		}
		const amount = check('invalid_amount', () => u64Of(amountRaw, `${at}.amount`));
		return { sparkTransferId, assetType, tokenId, amount };
	});
}

function readEvmTransaction(raw: unknown, chainId: number): SignedTransaction {
	if (typeof raw !== 'string') throw rejectAdmission('invalid_evm_transaction', 'evmTransaction must be a hex string');
	const tx = check('invalid_evm_transaction', () => signedEip1559Of(raw));
	if (tx.chainId !== BigInt(chainId)) {
		throw rejectAdmission('invalid_evm_transaction', `evmTransaction chainId ${tx.chainId} does not match the intent chainId ${chainId}`);
	}
	return tx;
}

/** What the wire fields of an execute body say (§2.1), read and checked, and the message they sign (§2.4). */
export interface WireIntent {
	message: IntentMessage;
	recipient?: string;
	tx?: SignedTransaction;
}

/**
 * The §2.4 message an execute body signs, rebuilt from its wire fields in admission's order:
 * chainId, expiresAt (against `nowMs`, §8), nonce, action, recipient or evmTransaction (whose chain
 * must be the body's), deposits. Throws GatewayApiError naming the field.
 */
export function intentMessageOfWire(body: Body, nowMs: number): WireIntent {
	if (typeof body.chainId !== 'number' || !Number.isSafeInteger(body.chainId)) {
		throw rejectAdmission('invalid_request', 'chainId must be an integer');
	}
	const chainId = body.chainId;
	const expiresAt = check('invalid_expires_at', () => expiresAtOf(body.expiresAt, nowMs));
	const nonce = check('invalid_nonce', () => nonceOf(body.nonce));
	const hasRecipient = isPresent(body.recipient);
	const hasTx = isPresent(body.evmTransaction);
	if (hasRecipient === hasTx) {
		throw rejectAdmission(
			'invalid_action',
			hasRecipient ? 'set exactly one of recipient and evmTransaction, not both' : 'set exactly one of recipient and evmTransaction',
		);
	}
	const recipient = hasRecipient ? check('invalid_recipient', () => recipientOf(body.recipient)) : undefined;
	const tx = hasTx ? readEvmTransaction(body.evmTransaction, chainId) : undefined;
	const transfers = readTransfers(body);
	const action = tx ? { type: 'execute' as const, signedTxHash: tx.hash } : { type: 'deposit' as const, recipient: recipient as string };
	return { message: { chainId, transfers, action, nonce, expiresAt }, recipient, tx };
}

/**
 * Admission of POST /api/v1/execute, in order: network state, chainId, expiresAt (wall clock,
 * §8), nonce, action, recipient or evmTransaction, deposits, signature over the canonical message
 * rebuilt from the wire fields (§2.4), nonce replay and transfer claims (§3). Throws GatewayApiError.
 */
export function admitExecute(state: GatewayState, signer: string, bodyRaw: unknown, nowMs: number): AdmittedIntent {
	if (typeof bodyRaw !== 'object' || bodyRaw === null || Array.isArray(bodyRaw)) {
		throw rejectAdmission('invalid_request', 'request body must be a JSON object (execution-gateway.md §2.1)');
	}
	const body = bodyRaw as Body;
	const { config } = state;
	if (config.paused && !config.admitWhenPaused) throw rejectAdmission('network_paused', 'the network is paused; no intents are admitted (see network info `paused`)');

	if (typeof body.chainId !== 'number' || !Number.isSafeInteger(body.chainId)) {
		throw rejectAdmission('invalid_request', 'chainId must be an integer');
	}
	if (body.chainId !== config.chainId) {
		throw rejectAdmission('chain_id_mismatch', `chainId ${body.chainId} does not match execution.chainId ${config.chainId}`);
	}
	const { message, recipient, tx } = intentMessageOfWire(body, nowMs);
	const { transfers, nonce, expiresAt } = message;

	if (typeof body.signature !== 'string' || body.signature.length === 0) {
		throw rejectAdmission('invalid_signature', 'signature is required: DER hex over SHA-256 of the canonical intent message');
	}
	transfers.forEach((t, k) => {
		// §8: a Bitcoin deposit below minDepositSats is refused; each transfer funds one intent at most (§3)
		if (t.assetType === 'btc' && t.amount < BigInt(config.minDepositSats)) {
			throw rejectAdmission('below_min_deposit', `deposits[${k}].amount: ${t.amount} sats is below the gateway minimum of ${config.minDepositSats} sats (Network Info: minDepositSats)`);
		}
		const first = transfers.findIndex((u) => u.sparkTransferId.toLowerCase() === t.sparkTransferId.toLowerCase());
		if (first !== k) {
			throw rejectAdmission('duplicate_transfer_id', `deposits[${k}].sparkTransferId: repeats deposits[${first}]: each Spark transfer may appear once`);
		}
	});
	// §2.4: the message rebuilt from the wire fields already checked, hashed and checked against the bearer's key
	const digest = sha256(canonicalMessage(message));
	if (!verifiesDer(body.signature, digest, signer)) {
		throw rejectAdmission(
			'invalid_signature',
			'signature does not verify against the authenticated public key over the canonical intent message (§2.4)',
		);
	}

	if (state.hasNonce(signer, nonce)) throw conflict('nonce_replayed', `nonce ${JSON.stringify(nonce)} was already used by this signer`);
	for (const t of transfers) {
		const claim = state.claimOf(t.sparkTransferId);
		if (claim) {
			throw conflict(
				'transfer_already_claimed',
				claim.spent
					? `transfer ${t.sparkTransferId} already funded finalized intent ${claim.submissionId}`
					: `transfer ${t.sparkTransferId} is claimed by pending intent ${claim.submissionId}`,
			);
		}
	}

	return {
		intentId: `0x${bytesToHex(digest)}`,
		kind: tx ? 'execute' : 'deposit',
		transfers,
		nonce,
		expiresAt,
		recipient: tx ? tx.from : (recipient as string),
		signedTxHash: tx?.hash,
		evm: tx ? { from: tx.from, to: tx.to, data: tx.data, gasLimit: tx.gasLimit } : undefined,
		plannedRevert: tx ? revertPlanFromCalldata(tx.data) : undefined,
	};
}
