/** The node's signer: the credential's keypair, parsed once per item and never echoed. */
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { ProtocolError } from '../../shared/errors';
import { parsePrivateKey, publicKeyFromPrivateKey } from '../../shared/gateway/keys';
import { joinUrl } from '../../transport/request';
import { insecureUrlReason } from '../../transport/secureUrl';
import { CREDENTIAL_TYPE } from './transport';

export interface GatewaySigner {
	gatewayUrl: string;
	privateKey: Uint8Array;
	/** 33-byte compressed hex, the identity the bearer token stands for (§2.1, §5). */
	publicKey: string;
}

export async function signerOf(ctx: IExecuteFunctions, itemIndex: number): Promise<GatewaySigner> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	let privateKey: Uint8Array;
	try {
		privateKey = parsePrivateKey(typeof credentials.privateKey === 'string' ? credentials.privateKey : '', 'privateKey');
	} catch (error) {
		// ProtocolError messages describe the problem (length, characters) without the value.
		const reason = error instanceof ProtocolError ? error.message : 'privateKey is not a valid secp256k1 private key';
		throw new NodeOperationError(ctx.getNode(), `The Execution Gateway credential's "Private Key" is invalid: ${reason}`, {
			itemIndex,
			description: 'Open the credential and paste the 32-byte private key as 64 hex characters (0x optional). Nothing was sent.',
		});
	}
	return { gatewayUrl: secureGatewayUrl(ctx, credentials.gatewayUrl, itemIndex), privateKey, publicKey: publicKeyFromPrivateKey(privateKey) };
}

/** The credential's Gateway URL, refused before any request unless https (or loopback http). */
function secureGatewayUrl(ctx: IExecuteFunctions, url: unknown, itemIndex: number): string {
	const reason = insecureUrlReason(url);
	if (reason !== undefined) {
		throw new NodeOperationError(ctx.getNode(), `The Execution Gateway credential's "Gateway URL" is refused: ${reason}`, {
			itemIndex,
			description: 'Open the credential and use the https:// address of the gateway. Nothing was sent.',
		});
	}
	return joinUrl(url, '');
}

/** Only the gateway URL: the public endpoints work even when the key is wrong. */
export async function gatewayUrlOf(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return secureGatewayUrl(ctx, credentials.gatewayUrl, itemIndex);
}
