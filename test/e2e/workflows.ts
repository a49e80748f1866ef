/** Builders for the workflows the end-to-end suite imports into n8n. */
import { CREDENTIAL_IDS, CREDENTIAL_NAMES } from '../../scripts/lib/examples';
import { CUSTOM_PREFIX } from '../../scripts/lib/n8n-instance';

export interface WfNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	executeOnce?: boolean;
	webhookId?: string;
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
}

export const CREDS = {
	server: { orchestrationServerApi: { id: CREDENTIAL_IDS.server, name: CREDENTIAL_NAMES.server } },
	client: { orchestrationClientApi: { id: CREDENTIAL_IDS.client, name: CREDENTIAL_NAMES.client } },
	gateway: { executionGatewayApi: { id: CREDENTIAL_IDS.gateway, name: CREDENTIAL_NAMES.gateway } },
};

export const T = {
	manual: 'n8n-nodes-base.manualTrigger',
	http: 'n8n-nodes-base.httpRequest',
	noop: 'n8n-nodes-base.noOp',
	orchestration: `${CUSTOM_PREFIX}orchestration`,
	trigger: `${CUSTOM_PREFIX}orchestrationTrigger`,
	gateway: `${CUSTOM_PREFIX}executionGateway`,
};

/** A linear workflow: each node feeds the next. Nodes after the first run once unless told. */
export function linearWorkflow(id: string, name: string, nodes: WfNode[]) {
	const typeVersions: Record<string, number> = { [T.manual]: 1, [T.http]: 4.2, [T.noop]: 1 };
	const built = nodes.map((n, i) => ({
		id: `${id}-${i}`,
		name: n.name,
		type: n.type,
		typeVersion: n.typeVersion ?? typeVersions[n.type] ?? 1,
		position: [i * 220, 0],
		parameters: n.parameters ?? {},
		...(n.credentials ? { credentials: n.credentials } : {}),
		...(i > 0 && n.executeOnce !== false ? { executeOnce: true } : {}),
		...(n.webhookId ? { webhookId: n.webhookId } : {}),
		...(n.onError ? { onError: n.onError } : {}),
	}));
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < built.length - 1; i++) {
		connections[built[i].name] = { main: [[{ node: built[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, nodes: built, connections, active: false, settings: { executionOrder: 'v1' }, pinData: {} };
}

/** An HTTP Request node posting JSON (used to pay deposit addresses in the sandbox). */
export function postJson(name: string, url: string, jsonBodyExpression: string): WfNode {
	return {
		name,
		type: T.http,
		parameters: { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody: jsonBodyExpression, options: {} },
	};
}
