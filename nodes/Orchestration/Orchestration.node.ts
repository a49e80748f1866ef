/**
 * Orchestration: quotes, orders, routes, affiliates and webhooks of the cross-chain orchestration
 * service (orchestration-service.md). The description and the wiring; each operation is
 * actions/<resource>/<operation>.ts, its requests go through transport/ (orchestrationApiRequest).
 */
import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { resourceProperty, resources, router, TOOL_ACTIONS } from './actions/router';
import { listSearch, loadOptions } from './methods';
import { toolActionsProperty, toolActionsText } from '../n8n/toolMode';

export class Orchestration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Orchestration',
		name: 'orchestration',
		icon: {
			light: 'file:../../icons/orchestration.svg',
			dark: 'file:../../icons/orchestration.dark.svg',
		},
		group: ['transform'],
		// 2: "Amount Format" defaults to Decimal, Bitcoin output index sent only when given
		// 3: Quote > Create shows "Refund Address" at the top level (required for Exact Out and Lightning destinations);
		//    the quote and estimate asset pickers are searchable resource locators (From List / By ID);
		//    Get Status's Wait Until Final follows the event stream and ends on an order that needs an answer
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Quote and track cross-chain transfers: quotes, orders, routes, affiliates and webhooks',
		defaults: { name: 'Orchestration' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'orchestrationServerApi',
				required: true,
				displayOptions: { show: { authentication: ['serverKey'] } },
			},
			{
				name: 'orchestrationClientApi',
				required: true,
				displayOptions: { show: { authentication: ['clientKey'] } },
			},
		],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{
						name: 'Client Key',
						value: 'clientKey',
						description: 'A scoped fnp_ key; reads need the read token of the quote or order',
					},
					{
						name: 'Server Key',
						value: 'serverKey',
						description: 'A fn_ backend secret that reaches every partner endpoint',
					},
				],
				default: 'serverKey',
			},
			resourceProperty,
			...Object.values(resources).flatMap((r) => r.description),
			toolActionsProperty(toolActionsText(TOOL_ACTIONS)),
		],
	};

	methods = { loadOptions, listSearch };

	// The router is the node's execute(): no frame between n8n and the operation's loop.
	execute = router;
}
