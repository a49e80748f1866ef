/**
 * The e2e run has no Slack: the examples' Slack steps become stand-ins of n8n's own nodes before
 * the import, each keeping what Slack would have received so the test can read it from the
 * execution:
 * - send and wait (an approval), as n8n 2.41.1 resumes it (test/e2e/sendAndWait.e2e.ts checks these
 *   against the real Slack node): `approve`, a Set node with `data: { approved: true, respondedAt }`
 *   (the person clicked the approve button) and the message and channel it would have sent;
 *   `decline`, the same with `approved: false`; `timeout`, a No Operation node: when the wait limit
 *   passes, n8n passes the node's input item on unchanged (no `data.approved` at all);
 * - a message: a Set node with the evaluated text and channel (`slackText`, `slackChannel`);
 * - a file upload: a Set node with the comment, evaluated, and the QR image's binary metadata (so
 *   the test sees the image reached the step that posts it), the input item kept.
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

function setNode(node: WorkflowNode, fields: Array<[string, unknown, string?]>, includeOtherFields: boolean): WorkflowNode {
	return {
		...node,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		credentials: undefined,
		webhookId: undefined,
		parameters: {
			mode: 'manual',
			includeOtherFields,
			assignments: { assignments: fields.map(([name, value, type], i) => ({ id: `s${i}`, name, value, type: type ?? 'string' })) },
			options: {},
		},
	};
}

/** The channel a Slack node names (a resource locator or a plain value). */
function channelOf(node: WorkflowNode): unknown {
	const channel = node.parameters.channelId as { value?: unknown } | string | undefined;
	return typeof channel === 'object' && channel !== null ? channel.value : channel;
}

function uploadStandIn(node: WorkflowNode): WorkflowNode {
	const options = (node.parameters.options ?? {}) as Record<string, unknown>;
	const property = String(node.parameters.binaryPropertyName ?? 'data');
	return setNode(
		node,
		[
			['slackComment', options.initialComment],
			['slackFileName', options.fileName],
			['qrMimeType', `={{ $binary.${property}?.mimeType }}`],
			['qrFileSize', `={{ $binary.${property}?.fileSize }}`],
		],
		true,
	);
}

/** How the person answers a send-and-wait step: approves, declines, or lets the wait limit pass. */
export type ApprovalAnswer = 'approve' | 'decline' | 'timeout';

function approvalStandIn(node: WorkflowNode, answer: ApprovalAnswer): WorkflowNode {
	if (answer === 'timeout') {
		return { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, credentials: undefined, webhookId: undefined, parameters: {} };
	}
	return setNode(
		node,
		[
			['data', `={{ { approved: ${answer === 'approve'}, respondedAt: $now.toUTC().toISO() } }}`, 'object'],
			['slackChannel', channelOf(node)],
			['slackMessage', node.parameters.message],
		],
		false,
	);
}

function messageStandIn(node: WorkflowNode): WorkflowNode {
	return setNode(
		node,
		[
			['slackChannel', channelOf(node)],
			['slackText', node.parameters.text],
		],
		false,
	);
}

/** The workflow with every Slack step replaced by its stand-in; send-and-wait steps answered as `approval` says. */
export function withSlackStandIns<T extends { nodes: WorkflowNode[] }>(workflow: T, approval: ApprovalAnswer = 'approve'): T {
	const nodes = workflow.nodes.map((node) => {
		if (node.type !== SLACK) return node;
		if (node.parameters.operation === 'sendAndWait') return approvalStandIn(node, approval);
		if (node.parameters.resource === 'file') return uploadStandIn(node);
		const operation = node.parameters.operation ?? 'post';
		if ((node.parameters.resource ?? 'message') === 'message' && operation === 'post') return messageStandIn(node);
		throw new Error(`no stand-in for the Slack step ${String(node.name)} (${String(node.parameters.resource)} ${String(operation)})`);
	});
	return { ...workflow, nodes };
}
