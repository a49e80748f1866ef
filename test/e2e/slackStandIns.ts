/**
 * The e2e run has no Slack: example 5's two Slack steps become stand-ins of n8n's own nodes before
 * the import. The approval (send and wait) becomes a No Op, as if approved at once; the file upload
 * becomes a Set node that keeps what Slack would have received: the comment, evaluated, and the QR
 * image's binary metadata (so the test sees the image reached the step that posts it).
 */
interface WorkflowNode {
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: unknown;
	webhookId?: string;
	[k: string]: unknown;
}

const SLACK = 'n8n-nodes-base.slack';

function uploadStandIn(node: WorkflowNode): WorkflowNode {
	const options = (node.parameters.options ?? {}) as Record<string, unknown>;
	const property = String(node.parameters.binaryPropertyName ?? 'data');
	const fields: Array<[string, unknown]> = [
		['slackComment', options.initialComment],
		['slackFileName', options.fileName],
		['qrMimeType', `={{ $binary.${property}?.mimeType }}`],
		['qrFileSize', `={{ $binary.${property}?.fileSize }}`],
	];
	return {
		...node,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		credentials: undefined,
		parameters: {
			mode: 'manual',
			includeOtherFields: true,
			assignments: { assignments: fields.map(([name, value], i) => ({ id: `s${i}`, name, value, type: 'string' })) },
			options: {},
		},
	};
}

/** The workflow with its Slack send-and-wait and file-upload steps replaced; other Slack steps as they are. */
export function withSlackStandIns<T extends { nodes: WorkflowNode[] }>(workflow: T): T {
	const nodes = workflow.nodes.map((node) => {
		if (node.type !== SLACK) return node;
		if (node.parameters.operation === 'sendAndWait') {
			return { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, credentials: undefined, webhookId: undefined, parameters: {} };
		}
		return node.parameters.resource === 'file' ? uploadStandIn(node) : node;
	});
	return { ...workflow, nodes };
}
