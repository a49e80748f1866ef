/**
 * What n8n's CredentialsTester (packages/cli, credentials-tester.service.ts) does with a credential's
 * `test` request, on n8n-core's real RoutingNode and ExecuteContext: the request goes through the
 * credential's `authenticate`, a non-2xx answer fails unless ignored, and the `rules` decide.
 */
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IRunExecutionData,
} from 'n8n-workflow';
import { core, TestCredentialsHelper } from '../../harness/n8n';

function get(obj: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

export async function testCredentialRequest(
	type: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const test = type.test;
	if (!test) throw new Error(`${type.name} has no test request`);
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type.name]: { id: 'cred', name: type.name } },
	};
	const nodeTypes = { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) } as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const credentialsHelper = new TestCredentialsHelper([type], { [type.name]: data });
	const additionalData = {
		credentialsHelper,
		executionId: 'credential-test',
		variables: {},
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		logAiEvent: () => {},
	} as never;
	const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const inputData = { main: [[{ json: {} }]] };
	const ctx = new core.ExecuteContext(workflow, node, additionalData, 'internal', runExecutionData, 0, [], inputData, { node, data: {}, source: null }, []);
	const routingNode = new core.RoutingNode(ctx, nodeType, { id: 'cred', name: type.name, type: type.name, data });
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		const e = error as { cause?: { response?: { status: number; statusText?: string }; code?: string }; message: string };
		if (e.cause?.response) {
			const status = e.cause.response.status;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: e.cause.response.statusText || `Received HTTP status code: ${status}` };
			}
		} else if (e.cause?.code) {
			return { status: 'Error', message: e.cause.code };
		}
		return { status: 'Error', message: e.message };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
