/** A workflow that runs every Execution Gateway operation in n8n, with the checks of its outputs. */
import { randomBytes } from 'node:crypto';
import { signEip1559 } from '../../nodes/shared/gateway/eip1559';
import type { Flow } from './orchestration.flows';
import { CREDS, T, linearWorkflow, postJson, type WfNode } from './workflows';

const EVM_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const RECIPIENT = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';

function gw(name: string, parameters: Record<string, unknown>): WfNode {
	return { name, type: T.gateway, parameters, credentials: CREDS.gateway };
}

export function gatewayWorkflows(gatewayUrl: string, chainId: number): Flow[] {
	const btcTransfer = randomBytes(16).toString('hex');
	const tokenTransfer = randomBytes(32).toString('hex');
	const tokenId = randomBytes(32).toString('hex');
	const u64Max = '18446744073709551615';
	const evmTransaction = signEip1559(
		{ chainId, nonce: 0, maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 30_000_000_000n, gasLimit: 200_000, to: `0x${'33'.repeat(20)}`, value: 0, data: '0x' },
		EVM_KEY,
	);
	const wait = { waitUntilFinal: true, pollInterval: 1, waitTimeout: 120 };
	return [
		{
			id: 'e2eGateway',
			title: 'every gateway operation: network info, health, a BTC deposit intent and a u64 token execute intent until FINALIZED, intent lookup',
			workflow: linearWorkflow('e2eGateway', 'E2E execution gateway', [
				{ name: 'Start', type: T.manual },
				gw('Network info', { resource: 'network', operation: 'getInfo', options: { forceRefresh: true } }),
				gw('Health', { resource: 'network', operation: 'getHealth' }),
				postJson('Register BTC transfer', `${gatewayUrl}/sandbox/transfers`, JSON.stringify({ sparkTransferId: btcTransfer, assetType: 'btc', amount: '25000' })),
				gw('Deposit intent', {
					resource: 'intent',
					operation: 'execute',
					deposits: { deposit: [{ sparkTransferId: btcTransfer, assetType: 'btc', amount: '25000' }] },
					action: 'deposit',
					recipient: RECIPIENT,
					options: wait,
				}),
				gw('Intent lookup', { resource: 'intent', operation: 'get', submissionId: "={{ $('Deposit intent').first().json.submissionId }}", options: {} }),
				postJson(
					'Register token transfer',
					`${gatewayUrl}/sandbox/transfers`,
					JSON.stringify({ sparkTransferId: tokenTransfer, assetType: 'token', tokenId, amount: u64Max }),
				),
				gw('Execute intent', {
					resource: 'intent',
					operation: 'execute',
					deposits: { deposit: [{ sparkTransferId: tokenTransfer, assetType: 'token', tokenId, amount: u64Max }] },
					action: 'execute',
					evmTransaction,
					options: wait,
				}),
			]),
			check(result) {
				if (!result.ok) throw new Error(`the workflow failed:\n${result.raw.slice(-4000)}`);
				expect(result.outputs['Network info'][0]).toMatchObject({ execution: { chainId }, paused: false });
				expect(result.outputs.Health[0]).toBeTruthy();
				expect(result.outputs['Deposit intent'][0]).toMatchObject({ status: 'FINALIZED', recipient: RECIPIENT });
				expect(result.outputs['Intent lookup'][0]).toMatchObject({ status: 'FINALIZED', executionTxHash: expect.any(String) });
				const exec = result.outputs['Execute intent'][0];
				expect(exec).toMatchObject({ status: 'FINALIZED', evmSigner: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23' });
				expect(exec.signedTxHash).toMatch(/^0x[0-9a-f]{64}$/);
			},
		},
	];
}
