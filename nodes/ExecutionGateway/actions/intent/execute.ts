/**
 * intent.execute: builds the canonical message (execution-gateway.md §2.4), signs it with the
 * credential's key, and submits the wire request (§2.1) to POST /api/v1/execute. Every rule the
 * client can check runs before anything is sent; u64 amounts never pass through a JS number.
 * read (intentInput.ts) -> plan (intentPlan.ts) -> network check (gateway.ts) -> identity across
 * retries (intentIdentity.ts) -> sign and send (intentSubmit.ts) -> wait until final (intentWait.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown } from '../../../n8n/descriptions';
import { getNodeParameter, optionsOf } from '../../../n8n/items';
import { actionFieldOf, intentInputOf, type IntentItem } from '../../../shared/gateway/intentInput';
import {
	canonicalBodyOf,
	checkAgainstNetwork,
	planIntent,
} from '../../../shared/gateway/intentPlan';
import { getNetworkInfo, signerOf } from '../../helpers/gateway';
import { deriveNonce, expiryFor, rememberedIntent } from '../../helpers/intentIdentity';
import { pausedWarning, submit, type Submission } from '../../helpers/intentSubmit';
import { waitForFinal, waitOptionsFor } from '../../helpers/intentWait';

export const show = { resource: ['intent'], operation: ['execute'] };

/** An action: it moves funds (signs an intent that spends deposits), so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = [
	{
		displayName: 'Deposits',
		name: 'deposits',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Deposit',
		default: {},
		displayOptions: { show },
		description: 'Spark transfers that fund the intent; the list may be empty',
		options: [
			{
				displayName: 'Deposit',
				name: 'deposit',
				values: [
					{
						displayName: 'Spark Transfer ID',
						name: 'sparkTransferId',
						type: 'string',
						default: '',
						description:
							'ID of the Spark transfer as plain hex: 32 characters for BTC, 64 for tokens. A dashed UUID or a 0x prefix is accepted and normalized.',
					},
					dropdown(
						[
							['BTC', 'btc'],
							['Token', 'token'],
						],
						{ displayName: 'Asset Type', name: 'assetType' },
					),
					{
						displayName: 'Token ID',
						name: 'tokenId',
						type: 'string',
						// n8n's lint masks every parameter whose name contains "token"; the id itself is public.
						typeOptions: { password: true },
						default: '',
						displayOptions: { show: { assetType: ['token'] } },
						description: '32-byte token ID as 64 hex characters',
					},
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'string',
						default: '',
						placeholder: '100000',
						description:
							'Amount in base units (sats for BTC) as decimal digits, up to 18446744073709551615 (unsigned 64-bit)',
					},
				],
			},
		],
	},
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Deposit and Execute',
				value: 'execute',
				description: 'Credit the signer of an EVM transaction and run it',
				action: 'Deposit and execute an EVM transaction',
			},
			{
				name: 'Deposit Only',
				value: 'deposit',
				description: 'Credit the deposits to an EVM address',
				action: 'Deposit to an EVM address',
			},
		],
		default: 'deposit',
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0x0000000000000000000000000000000000000000',
		displayOptions: { show: { ...show, action: ['deposit'] } },
		description: 'EVM address credited with the deposits: 0x followed by 40 hex characters',
	},
	{
		displayName: 'EVM Transaction',
		name: 'evmTransaction',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0x02f8...',
		displayOptions: { show: { ...show, action: ['execute'] } },
		description:
			'Hex of the signed EIP-1559 transaction (RLP); its signer is the account the deposits credit',
	},
];

/** Its "Options": intent/index.ts puts them in the collection, with the wait options in versions 1-1.1 (optionsWithWait). */
export const optionFields: INodeProperties[] = [
	{
		displayName: 'Chain ID',
		name: 'chainId',
		type: 'number',
		default: 0,
		description:
			"Execution chain ID; 0 takes it from Network Info. A given value must equal the gateway's chain ID, checked before sending.",
	},
	{
		displayName: 'Deposits (JSON)',
		name: 'depositsJson',
		type: 'json',
		default: '[]',
		description:
			'Deposits as a JSON array of {sparkTransferId, assetType: "btc" | "token", tokenId, amount}, instead of the Deposits list. Write large amounts as strings or plain digits; they stay exact.',
	},
	{
		displayName: 'Expires At',
		name: 'expiresAt',
		type: 'string',
		default: '',
		placeholder: '2030-01-01T12:00:00Z',
		description:
			'Unix milliseconds or an ISO 8601 timestamp, at most 24 hours ahead. Empty: now + 15 minutes, kept the same when n8n retries the item.',
	},
	{
		displayName: 'Nonce',
		name: 'nonce',
		type: 'string',
		default: '',
		description:
			'Unique per keypair; the gateway refuses a reused nonce. Empty: 32 hex characters derived from workflow, execution, node, item and intent content, so a retried item cannot create a second intent. Set your own (for example an order ID) to deduplicate across executions.',
	},
	{
		displayName: 'Refuse When Paused',
		name: 'refuseWhenPaused',
		type: 'boolean',
		default: false,
		description:
			'Whether to refuse the intent, before sending, when Network Info reports paused. Off: paused is advisory (the live service may still admit intents) and the output carries a warning.',
	},
];

/** The item's parameters as stored (after expressions): the core reads and checks them. */
function intentItemOf(ctx: IExecuteFunctions, i: number): IntentItem {
	const options = optionsOf(ctx, i);
	const action = getNodeParameter<string>(ctx, 'action', i);
	return {
		depositList: getNodeParameter<IDataObject[]>(ctx, 'deposits.deposit', i, []),
		depositsJson: options.depositsJson,
		action,
		actionValue: getNodeParameter(ctx, actionFieldOf(action), i),
		expiresAt: options.expiresAt,
		nonce: options.nonce,
		chainId: options.chainId,
	};
}

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	// Field rules of §2.1/§2.4/§8 (ids, amounts, recipient, signed transaction, expiry) before any request.
	const plan = planIntent(intentInputOf(intentItemOf(this, i)), Date.now());
	const signer = await signerOf(this, i);
	const info = await getNetworkInfo(this, i);
	const warning = pausedWarning(this, i, info, optionsOf(this, i));
	checkAgainstNetwork(plan, info);
	const chainId = info.execution.chainId;

	// The body (chain, transfers, action) seeds the default nonce and is closed with the header to sign.
	const canonicalBody = canonicalBodyOf(plan, chainId);
	const nonce = plan.nonce ?? deriveNonce(this, i, canonicalBody);
	const remembered = rememberedIntent(this, nonce, canonicalBody);
	if (!remembered.submission) {
		const header = { chainId, nonce, expiresAt: expiryFor(remembered, plan.expiresAt, Date.now()) };
		const intent: Submission = { signer, plan, header, canonicalBody };
		remembered.submission = await submit(this, i, intent, remembered);
		if (remembered.submission.outcome === 'accepted_earlier') return { ...remembered.submission };
	}
	const submission: IDataObject = {
		...(remembered.submission as IDataObject),
		...(warning ? { warning } : {}),
	};
	const wait = waitOptionsFor(this, i);
	// After a lost answer the submission id is unknown, so there is nothing to poll.
	if (!wait.waitUntilFinal || submission.submissionId === null) return submission;
	const final = await waitForFinal(
		this,
		i,
		{ submissionId: String(submission.submissionId) },
		wait,
	);
	return { ...submission, ...final };
}
