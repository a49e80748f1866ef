/** Executions of a running n8n through its public API: wait for one to end, read what its nodes output. */
import type { N8nInstance } from './n8n-instance';

export interface Execution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	startedAt: string;
	stoppedAt?: string | null;
	data?: { resultData?: { error?: { message?: string }; runData?: Record<string, NodeRun[]> } };
}

interface NodeRun {
	error?: { message?: string };
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
}

/** Statuses after which an execution does not change. */
const ENDED = new Set(['success', 'error', 'crashed', 'canceled']);

export async function executionOf(n8n: N8nInstance, apiKey: string, id: string): Promise<Execution> {
	return await n8n.api<Execution>(apiKey, 'GET', `/executions/${id}?includeData=true`);
}

/** The execution once it ended (`waiting` counts as not ended: a Wait node parks it), or an error after the timeout. */
export async function endedExecution(n8n: N8nInstance, apiKey: string, id: string, timeoutMs = 300_000): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const ex = await executionOf(n8n, apiKey, id).catch(() => undefined);
		if (ex && ENDED.has(ex.status)) return ex;
		if (Date.now() > deadline) throw new Error(`execution ${id} did not end within ${timeoutMs} ms (status ${ex?.status ?? 'unknown'})`);
		await new Promise((r) => setTimeout(r, 1000));
	}
}

/** Every execution of a workflow (all pages), newest first, without their data. */
export async function executionsOf(n8n: N8nInstance, apiKey: string, workflowId: string): Promise<Execution[]> {
	const out: Execution[] = [];
	let cursor: string | undefined;
	do {
		const q = new URLSearchParams({ workflowId, limit: '250', ...(cursor ? { cursor } : {}) });
		const page = await n8n.api<{ data: Execution[]; nextCursor?: string | null }>(apiKey, 'GET', `/executions?${q}`);
		out.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

/** Output items (json) of a node in every run of an execution, runs in order (a loop runs a node many times). */
export function runsOf(execution: Execution, node: string): Array<Array<Record<string, unknown>>> {
	const runs = execution.data?.resultData?.runData?.[node] ?? [];
	return runs.map((r) => (r.data?.main ?? []).flatMap((out) => out ?? []).map((i) => i.json));
}

/** The items a node output in its last run ([] when it never ran). */
export function lastOutput(execution: Execution, node: string): Array<Record<string, unknown>> {
	const runs = runsOf(execution, node);
	return runs[runs.length - 1] ?? [];
}

/** The first error message of an execution, if it failed. */
export function errorOf(execution: Execution): string | undefined {
	const top = execution.data?.resultData?.error?.message;
	if (top) return top;
	for (const [node, runs] of Object.entries(execution.data?.resultData?.runData ?? {})) {
		for (const r of runs) if (r.error?.message) return `${node}: ${r.error.message}`;
	}
	return undefined;
}
