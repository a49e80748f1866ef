/**
 * Execution Gateway node: network discovery and health, signed intents (execute) and their status
 * (execution-gateway.md). The description and the wiring; each operation is
 * actions/<resource>/<operation>.ts, its requests go through transport/ (gatewayApiRequest).
 */
import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { toolActionsProperty } from '../n8n/toolMode';
import { resourceProperty, resources, router } from './actions/router';

export class ExecutionGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Execution Gateway',
		name: 'executionGateway',
		icon: {
			light: 'file:../../icons/executionGateway.svg',
			dark: 'file:../../icons/executionGateway.dark.svg',
		},
		group: ['transform'],
		// 1.1: "paused" in Network Info is advisory (a warning) unless Refuse When Paused; 1 keeps refusing.
		// 1.2: Intent > Get / Execute wait with the Orchestration node's top-level wait parameters (at least 3 s apart)
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Submit signed intents that fund EVM actions with Spark transfers, and follow their status',
		defaults: { name: 'Execution Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'executionGatewayApi', required: true }],
		properties: [
			resourceProperty,
			...Object.values(resources).flatMap((r) => r.description),
			toolActionsProperty('Intent > Execute (it signs intents that move deposits)'),
		],
	};

	// The router is the node's execute(): no frame between n8n and the operation's loop.
	execute = router;
}
