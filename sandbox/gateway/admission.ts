import {
	assertDistinctTransfers,
	assertMinDeposits,
	buildTransfers,
	decodeSignedEip1559,
	Eip1559Error,
	ProtocolError,
	intentDigest,
	type CanonicalAction,
	intentIdFromDigest,
	parseU64,
	validateExpiresAt,
	validateNonce,
	validateRecipient,
	validateTokenId,
	validateTransferId,
	verifyDerSignature,
	type DecodedEip1559,
	type WireIntent,
} from '../../nodes/shared/gateway';
import { conflict, rejectAdmission } from './errors';
import { revertPlanFromCalldata } from './markers';
import type { GatewayState, IntentRecord, IntentTransfer } from './state';

/** What admission hands to the lifecycle once every check of §2.1/§7/§8 passed: the record's admitted fields. */
export type AdmittedIntent = Pick<
	IntentRecord,
	'intentId' | 'kind' | 'transfers' | 'nonce' | 'expiresAt' | 'recipient' | 'signedTxHash' | 'evm' | 'plannedRevert'
>;

type Body = Record<string, unknown>;

/** Runs a protocol-core check and reports its ProtocolError under `code`. */
function check<T>(code: string, fn: () => T): T {
	try {
		return fn();
	} catch (e) {
		if (e instanceof ProtocolError) throw rejectAdmission(code, e.message);
		throw e;
	}
}

/** The same, for the rules whose message does not start with the field it names. */
function checkField<T>(code: string, fn: () => T): T {
	try {
		return fn();
	} catch (e) {
		if (e instanceof ProtocolError) throw rejectAdmission(code, `${e.field}: ${e.message}`);
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
		const sparkTransferId = check('invalid_transfer_id', () => validateTransferId(d.sparkTransferId, assetType, `${at}.sparkTransferId`));
		const tokenId = assetType === 'token' ? check('invalid_token_id', () => validateTokenId(asset.tokenId, `${at}.asset.tokenId`)) : undefined;
		const amountRaw = d.amount;
		if (typeof amountRaw !== 'string' && typeof amountRaw !== 'number' && typeof amountRaw !== 'bigint') {
			throw rejectAdmission('invalid_amount', `${at}.amount must be an unsigned 64-bit integer`);
		}
		const amount = check('invalid_amount', () => parseU64(amountRaw, `${at}.amount`));
		return { sparkTransferId, assetType, tokenId, amount };
	});
}

function readEvmTransaction(raw: unknown, chainId: number): DecodedEip1559 {
	if (typeof raw !== 'string') throw rejectAdmission('invalid_evm_transaction', 'evmTransaction must be a hex string');
	let tx: DecodedEip1559;
	try {
		tx = decodeSignedEip1559(raw);
	} catch (e) {
		if (e instanceof Eip1559Error) throw rejectAdmission('invalid_evm_transaction', `${e.message} (${e.reason})`);
		throw e;
	}
	if (tx.chainId !== BigInt(chainId)) {
		throw rejectAdmission('invalid_evm_transaction', `evmTransaction chainId ${tx.chainId} does not match the intent chainId ${chainId}`);
	}
	return tx;
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
	const expiresAt = check('invalid_expires_at', () => validateExpiresAt(body.expiresAt as number, nowMs));
	const nonce = check('invalid_nonce', () => validateNonce(body.nonce));

	const hasRecipient = isPresent(body.recipient);
	const hasTx = isPresent(body.evmTransaction);
	if (hasRecipient === hasTx) {
		throw rejectAdmission(
			'invalid_action',
			hasRecipient ? 'set exactly one of recipient and evmTransaction, not both' : 'set exactly one of recipient and evmTransaction',
		);
	}
	const recipient = hasRecipient ? check('invalid_recipient', () => validateRecipient(body.recipient)) : undefined;
	const tx = hasTx ? readEvmTransaction(body.evmTransaction, config.chainId) : undefined;
	const transfers = readTransfers(body);

	if (typeof body.signature !== 'string' || body.signature.length === 0) {
		throw rejectAdmission('invalid_signature', 'signature is required: DER hex over SHA-256 of the canonical intent message');
	}
	const deposits: WireIntent['deposits'] = transfers.map((t) => ({
		sparkTransferId: t.sparkTransferId,
		asset: t.assetType === 'token' ? { type: 'token', tokenId: t.tokenId as string } : { type: 'btc' },
		amount: t.amount,
	}));
	// The client's own rules (§3, §8), and the message rebuilt from the parts already checked: no second decode.
	const canonicalTransfers = check('invalid_request', () => buildTransfers(deposits));
	checkField('below_min_deposit', () => assertMinDeposits(canonicalTransfers, config.minDepositSats));
	checkField('duplicate_transfer_id', () => assertDistinctTransfers(canonicalTransfers));
	const action: CanonicalAction = tx ? { type: 'execute', signedTxHash: tx.hash } : { type: 'deposit', recipient: recipient as string };
	const digest = intentDigest({ chainId: config.chainId, transfers: canonicalTransfers, action, nonce, expiresAt });
	if (!verifyDerSignature(body.signature, digest, signer)) {
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
		intentId: intentIdFromDigest(digest),
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
