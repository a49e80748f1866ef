import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../../n8n/items';
import type { NetworkInfo } from '../../shared/gateway/responses';
import type { GatewaySigner } from '../gateway';
import type { RememberedIntent } from '../intentIdentity';
import type { Submission } from '../intentSubmit';
import type { SubmittedIntent, WaitOptions } from '../intentWait';

/**
 * The gateway as one item sees it (its "ports"): everything an operation does with n8n or the
 * network, built per item by the router (itemGateway.ts: the functions of gateway.ts,
 * intentIdentity.ts, intentSubmit.ts and intentWait.ts, same names, with the item's reader bound).
 * Operations only type-import it, so an operation's bundle holds its description and the protocol
 * core, nothing of the runtime (issue 24).
 */
export interface ItemGateway {
	// The credential (gateway.ts): its Gateway URL alone (https or loopback, checked), or with the signing key.
	gatewayUrlOf(): Promise<string>;
	signerOf(): Promise<GatewaySigner>;
	// Reads (gateway.ts): Network Info (§2.3a, cached 60 s unless forceRefresh), any public GET (§4, no credentials), an intent's status (§2.3).
	getNetworkInfo(gatewayUrl: string, forceRefresh?: boolean): Promise<NetworkInfo>;
	publicGet(url: string): Promise<unknown>;
	fetchIntent(gatewayUrl: string, submissionId: string): Promise<IDataObject>;
	// Intent > Execute's identity across Retry On Fail (intentIdentity.ts).
	deriveNonce(canonicalBody: string): string;
	rememberedIntent(nonce: string, canonicalBody: string): RememberedIntent;
	expiryFor(remembered: RememberedIntent, explicit: number | undefined, now: number): number;
	// Signing and sending (intentSubmit.ts): the paused warning (or refusal), then the submission.
	pausedWarning(info: NetworkInfo, options: IDataObject): string | undefined;
	submit(intent: Submission, remembered: RememberedIntent): Promise<IDataObject>;
	// The wait until FINALIZED or EXPIRED (intentWait.ts): the item's wait settings, then the wait.
	waitOptionsFor(): WaitOptions;
	waitForFinal(intent: SubmittedIntent, wait: WaitOptions): Promise<IDataObject>;
}

/** One operation: runs for one input item, read through its ItemReader, with the item's gateway; returns its output object. */
export type OperationExecute = (this: IExecuteFunctions, read: ItemReader, gateway: ItemGateway) => Promise<IDataObject>;

/** An operation module: its parameters next to its code (as in the Orchestration node). */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/** An action (it moves funds, reveals a secret or changes state): an AI-agent tool runs it only when allowed (toolActionsOf). */
	toolAction?: boolean;
}
