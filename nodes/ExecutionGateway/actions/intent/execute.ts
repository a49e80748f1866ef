/**
 * intent.execute: builds the canonical message (execution-gateway.md §2.4), signs it with the
 * credential's key, and submits the wire request (§2.1) to POST /api/v1/execute. Every rule the
 * client can check runs before anything is sent; u64 amounts never pass through a JS number.
 * The item is read in executeInput.ts; identity across retries, signing and the outcomes of
 * sending are executeSubmit.ts; the wait until final is intentWait.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dropdown, optionsCollection } from '../../../n8n/descriptions';
import { canonicalBodyOf, checkAgainstNetwork, planIntent } from '../../../shared/gateway/intentPlan';
import type { ItemReader } from '../../../n8n/items';
import { getNetworkInfo, signerOf } from '../../gateway';
import { OPTION_WAIT_VERSIONS, SHARED_WAIT_VERSIONS, waitForFinal, waitOptionFields, waitOptionsFor } from '../../intentWait';
import { readExecuteItem } from './executeInput';
import { deriveNonce, expiryFor, pausedWarning, rememberedIntent, submit } from './executeSubmit';

export { readExecuteItem } from './executeInput';
export { DEFAULT_EXPIRY_MS, deriveNonce, expiryFor, rememberedIntent, type RememberedIntent } from './executeSubmit';

const show = { resource: ['intent'], operation: ['execute'] };

/** "Options": with the wait options in versions 1-1.1; from 1.2 the wait parameters are top level (intentWait.ts). */
function versionedOptions(options: INodeProperties[]): INodeProperties[] {
	return [
		optionsCollection({ show: { ...show, '@version': OPTION_WAIT_VERSIONS } }, [...options, ...waitOptionFields]),
		optionsCollection({ show: { ...show, '@version': SHARED_WAIT_VERSIONS } }, options),
	];
}

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
		description: 'Hex of the signed EIP-1559 transaction (RLP); its signer is the account the deposits credit',
	},
	...versionedOptions([
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
	]),
];

export async function execute(this: IExecuteFunctions, read: ItemReader): Promise<IDataObject> {
	const { input, options } = readExecuteItem(read);
	// Field rules of §2.1/§2.4/§8 (ids, amounts, recipient, signed transaction, expiry) before any request.
	const plan = read.plan(() => planIntent(input, Date.now()));

	const signer = await signerOf(read);
	const info = await getNetworkInfo(read, signer.gatewayUrl);
	const warning = pausedWarning(read, info, options);
	read.plan(() => checkAgainstNetwork(plan, info));
	const chainId = info.execution.chainId;

	// The body (chain, transfers, action) seeds the default nonce and is closed with the header to sign.
	const canonicalBody = canonicalBodyOf(plan, chainId);
	const nonce = plan.nonce ?? deriveNonce(read, canonicalBody);
	const remembered = rememberedIntent(this, nonce, canonicalBody);
	if (!remembered.submission) {
		const header = { chainId, nonce, expiresAt: expiryFor(remembered, plan.expiresAt, Date.now()) };
		remembered.submission = await submit(read, { signer, plan, header, canonicalBody }, remembered);
		if (remembered.submission.outcome === 'accepted_earlier') return { ...remembered.submission };
	}
	const submission: IDataObject = { ...(remembered.submission as IDataObject), ...(warning ? { warning } : {}) };
	const wait = waitOptionsFor(read);
	// After a lost answer the submission id is unknown, so there is nothing to poll.
	if (!wait.waitUntilFinal || submission.submissionId === null) return submission;
	const final = await waitForFinal(read, { gatewayUrl: signer.gatewayUrl, submissionId: String(submission.submissionId) }, wait);
	return { ...submission, ...final };
}
