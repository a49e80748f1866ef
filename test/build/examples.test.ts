/**
 * The example workflows, read as files: well formed; every parameter they give this package's nodes
 * is one the node declares (resource and operation values included); no example that a team runs
 * unattended calls the sandbox, and the labelled sandbox steps of the others say so; every wallet
 * hand-off and Slack step has the stand-in the e2e suite and `npm start` swap in; every Data Table
 * column they read or write is one example 0 creates; every setting they read is in their Settings
 * node; no wait of theirs is held inside a node. The e2e suites run them in n8n.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { ExecutionGateway } from '../../nodes/ExecutionGateway/ExecutionGateway.node';
import { Orchestration } from '../../nodes/Orchestration/Orchestration.node';
import { OrchestrationTrigger } from '../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';
import { ERROR_WORKFLOW, PAYOUT_TABLES, TABLES_WORKFLOW, loadExamples, withWalletStandIns } from '../../scripts/lib/examples';
import { PACKAGE_PREFIX } from '../../scripts/lib/n8n-instance';
import { withSlackStandIns } from '../e2e/slackStandIns';

interface Node {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}
interface Workflow {
	id: string;
	name: string;
	settings?: Record<string, unknown>;
	nodes: Node[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const examples = loadExamples().map((e) => ({ file: e.file, wf: e.workflow as unknown as Workflow }));
const byId = (id: string) => examples.find((e) => e.wf.id === id)!.wf;
/** The examples a team leaves running: no step of theirs may be a sandbox call. */
const UNATTENDED = ['exPayoutTables', 'exRecurringPayout', 'exOrderEventsSlack', 'exOrderEventsLedger', 'exDailyReconciliation', ERROR_WORKFLOW];
const SANDBOX = { orchestrationUrl: 'http://127.0.0.1:8787', gatewayUrl: 'http://127.0.0.1:8788' };

const descriptions: Record<string, INodeTypeDescription> = {
	orchestration: new Orchestration().description,
	executionGateway: new ExecutionGateway().description,
	orchestrationTrigger: new OrchestrationTrigger().description,
};

function versions(d: INodeTypeDescription): number[] {
	return Array.isArray(d.version) ? d.version : [d.version];
}

describe('example workflows', () => {
	it('are the expected set, each well formed (unique ids and node names, connections between existing nodes)', () => {
		expect(examples.map((e) => e.wf.id)).toEqual([
			'exPayoutTables', 'exRecurringPayout', 'exOrderEventsSlack', 'exOrderEventsLedger', 'exGatewayDeposit', 'exLongWaitLoop', 'exApprovedPayout', 'exDailyReconciliation', ERROR_WORKFLOW,
		]);
		for (const { file, wf } of examples) {
			const names = wf.nodes.map((n) => n.name);
			expect({ file, duplicates: names.filter((n, i) => names.indexOf(n) !== i) }).toEqual({ file, duplicates: [] });
			const ids = wf.nodes.map((n) => n.id);
			expect({ file, duplicateIds: ids.filter((n, i) => ids.indexOf(n) !== i) }).toEqual({ file, duplicateIds: [] });
			for (const [from, c] of Object.entries(wf.connections)) {
				const targets = c.main.flat().map((t) => t.node);
				expect({ file, from, missing: [from, ...targets].filter((n) => !names.includes(n)) }).toEqual({ file, from, missing: [] });
			}
		}
	});

	it("give this package's nodes only parameters, resources and operations the nodes declare, at a version they have", () => {
		const problems: string[] = [];
		for (const { file, wf } of examples) {
			for (const node of wf.nodes.filter((n) => n.type.startsWith(PACKAGE_PREFIX))) {
				const d = descriptions[node.type.slice(PACKAGE_PREFIX.length)];
				if (!d) {
					problems.push(`${file} ${node.name}: unknown type ${node.type}`);
					continue;
				}
				if (!versions(d).includes(node.typeVersion)) problems.push(`${file} ${node.name}: version ${node.typeVersion}`);
				const declared = new Map<string, INodeProperties[]>();
				for (const p of d.properties) declared.set(p.name, [...(declared.get(p.name) ?? []), p]);
				for (const [name, value] of Object.entries(node.parameters)) {
					const props = declared.get(name);
					if (!props) {
						problems.push(`${file} ${node.name}: parameter ${name} is not declared`);
						continue;
					}
					if ((name === 'resource' || name === 'operation') && typeof value === 'string') {
						const allowed = props.flatMap((p) => (p.options ?? []).map((o) => (o as { value: unknown }).value));
						if (!allowed.includes(value)) problems.push(`${file} ${node.name}: ${name} ${value} is not one of its options`);
					}
				}
			}
		}
		expect(problems).toEqual([]);
	});

	it('that a team leaves running call no sandbox endpoint; the sandbox steps of the others are named as such', () => {
		for (const { file, wf } of examples) {
			for (const node of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.httpRequest')) {
				const url = String(node.parameters.url);
				const sandboxCall = url.includes('/sandbox/');
				if (UNATTENDED.includes(wf.id)) expect({ file, node: node.name, sandboxCall }).toEqual({ file, node: node.name, sandboxCall: false });
				else if (sandboxCall) expect(`${file}: ${node.name}`).toMatch(/\(sandbox( stand-in)?\)$/);
			}
		}
	});

	it('hand off payments to a wallet (with an idempotency key) and every hand-off and Slack step has its stand-in', () => {
		const payouts = byId('exRecurringPayout');
		const handOffs = payouts.nodes.filter((n) => n.credentials && 'httpHeaderAuth' in n.credentials);
		expect(handOffs.map((n) => n.name).sort()).toEqual(['Hand off Spark transfer to wallet', 'Hand off to wallet']);
		for (const n of handOffs) {
			expect(JSON.stringify(n.parameters.headerParameters)).toContain('Idempotency-Key');
			expect(String(n.parameters.jsonBody)).toContain('idempotencyKey:');
		}
		for (const { wf } of examples) {
			const swapped = withSlackStandIns(withWalletStandIns(wf as never, SANDBOX)) as unknown as Workflow;
			expect(swapped.nodes.filter((n) => n.type === 'n8n-nodes-base.slack' || (n.credentials && 'httpHeaderAuth' in n.credentials))).toEqual([]);
			const toWallet = swapped.nodes.filter((n) => n.type === 'n8n-nodes-base.httpRequest' && String(n.parameters.url).includes('walletUrl'));
			expect(toWallet.map((n) => n.name)).toEqual([]);
		}
		const standIns = (withWalletStandIns(payouts as never, SANDBOX) as unknown as Workflow).nodes.filter((n) => n.name.startsWith('Wallet stand-in'));
		expect(standIns.map((n) => n.parameters.url).sort()).toEqual(['http://127.0.0.1:8787/sandbox/deposits', 'http://127.0.0.1:8788/sandbox/transfers']);
	});

	it("hand the custody system the deposit transaction the Quote step verified, and none the service sent unverified", () => {
		const handOff = byId('exRecurringPayout').nodes.find((n) => n.name === 'Hand off to wallet')!;
		const expression = /^=\{\{([\s\S]*)\}\}$/.exec(String(handOff.parameters.jsonBody))![1];
		const payout = { payoutId: 'rent-alice-2026-W18', sourceChain: 'base', sourceAsset: 'USDC' };
		/** The body n8n builds from these outputs of "One payout" and "Quote". */
		const bodyFor = (quote: Record<string, unknown>) => {
			const $ = (node: string) => ({ first: () => ({ json: node === 'Quote' ? quote : payout }) });
			return JSON.parse((new Function('$', `return (${expression});`) as (s: typeof $) => string)($)) as Record<string, unknown>;
		};
		const quote = { depositAddress: '0x5555555555555555555555555555555555555555', depositMemo: null, amountIn: '125500000', amountInFormatted: '125.5', paymentUri: null, expiresAt: '2026-05-01T10:02:00Z' };
		// what the service sent, and what Quote > Create checked against the quote and the routes listing
		const unverified = { chainId: 8453, to: '0x6666666666666666666666666666666666666666', value: '0x0', data: '0xa9059cbbbad' };
		const verified = { chainId: '8453', to: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', value: '0', data: '0xa9059cbb0000000000000000000000005555555555555555555555555555555555555555' };
		const sent = bodyFor({ ...quote, depositTransaction: unverified, verifiedDepositTransaction: verified });
		expect(sent).toMatchObject({ idempotencyKey: payout.payoutId, to: quote.depositAddress, amount: quote.amountIn, unsignedTransaction: verified });
		expect(JSON.stringify(sent)).not.toMatch(/6666|a9059cbbbad|"chainId":8453/);
		// no verified transaction (the service sent none, or Include Calldata is off): the hand-off sends none
		const without = bodyFor({ ...quote, depositTransaction: unverified });
		expect(without.unsignedTransaction).toBeNull();
		expect(JSON.stringify(without)).not.toMatch(/6666|a9059cbb/);
	});

	it('build no HTTP Request URL from item data: each is written in the node, or is a fixed value of the Settings node', () => {
		const problems: string[] = [];
		let fromSettings = 0;
		for (const { file, wf } of examples) {
			const settings = wf.nodes.find((n) => n.name === 'Settings');
			const fixed = new Map(((settings?.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> } | undefined)?.assignments ?? []).map((a) => [a.name, a.value]));
			for (const node of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.httpRequest')) {
				const url = String(node.parameters.url);
				if (/^https?:\/\/[^{}$]+$/.test(url)) continue;
				const setting = /^=\{\{ \$\('Settings'\)\.first\(\)\.json\.(\w+) \}\}$/.exec(url)?.[1];
				const value = setting === undefined ? undefined : fixed.get(setting);
				if (typeof value === 'string' && /^https:\/\/[^{}$]+$/.test(value)) fromSettings++;
				else problems.push(`${file} ${node.name}: ${url}${setting ? ` (Settings.${setting} = ${String(value)})` : ''}`);
			}
		}
		expect(problems).toEqual([]);
		// the two wallet hand-offs of example 1
		expect(fromSettings).toBe(2);
	});

	it('read and write only the Data Tables and columns example 0 creates', () => {
		const created = new Map<string, Set<string>>();
		for (const n of byId(TABLES_WORKFLOW).nodes.filter((x) => x.parameters.operation === 'create')) {
			const columns = (n.parameters.columns as { column: Array<{ name: string }> }).column.map((c) => c.name);
			created.set(String(n.parameters.tableName), new Set(columns));
		}
		expect([...created.keys()].sort()).toEqual([PAYOUT_TABLES.ledger, PAYOUT_TABLES.schedule]);
		const problems: string[] = [];
		let checked = 0;
		for (const { file, wf } of examples) {
			for (const node of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.dataTable' && n.parameters.resource !== 'table')) {
				const tableName = String((node.parameters.dataTableId as { value: string }).value);
				const columns = created.get(tableName);
				if (!columns) {
					problems.push(`${file} ${node.name}: table ${tableName}`);
					continue;
				}
				const mapped = (node.parameters.columns as { value?: Record<string, unknown> } | undefined)?.value ?? {};
				const filtered = ((node.parameters.filters as { conditions?: Array<{ keyName: string }> } | undefined)?.conditions ?? []).map((c) => c.keyName);
				for (const column of [...Object.keys(mapped), ...filtered]) {
					checked++;
					// `id` is the table's own row id; an expression picks a column at run time (example 3: quoteId or orderId)
					if (column !== 'id' && !column.startsWith('=') && !columns.has(column)) problems.push(`${file} ${node.name}: column ${column} of ${tableName}`);
				}
			}
		}
		expect(problems).toEqual([]);
		expect(checked).toBeGreaterThan(100);
	});

	it('stamp every ledger write with checkedAt, and the reconciliation writes a row back only if no other flow wrote it since it read it', () => {
		const writes = ['exRecurringPayout', 'exOrderEventsLedger', 'exApprovedPayout', 'exDailyReconciliation'].flatMap((id) =>
			byId(id).nodes.filter(
				(n) => n.type === 'n8n-nodes-base.dataTable' && ['insert', 'update', 'upsert'].includes(String(n.parameters.operation)) && (n.parameters.dataTableId as { value: string }).value === PAYOUT_TABLES.ledger,
			),
		);
		expect(writes.length).toBeGreaterThan(12);
		for (const n of writes) {
			const value = (n.parameters.columns as { value: Record<string, unknown> }).value;
			expect({ node: n.name, checkedAt: value.checkedAt }).toEqual({ node: n.name, checkedAt: '={{ $now.toUTC().toISO() }}' });
		}
		const update = byId('exDailyReconciliation').nodes.find((n) => n.name === 'Update the row')!;
		const conditions = (update.parameters.filters as { conditions: Array<Record<string, string>> }).conditions;
		expect(conditions).toContainEqual({
			keyName: 'checkedAt',
			condition: "={{ $('Open ledger rows').item.json.checkedAt ? 'eq' : 'isEmpty' }}",
			keyValue: "={{ $('Open ledger rows').item.json.checkedAt }}",
		});
	});

	const REPRICE_ASKS = ['Ask a person: re-approval', 'Ask a person: refund or reject'];
	it('go on after asking a person only on a click on Approve: no answer or a decline quotes, pays or accepts nothing', () => {
		// n8n 2.41.1 hands on { data: { approved } } after a click, and the step's input item unchanged when the wait runs out (test/e2e/sendAndWait.e2e.ts)
		const pays = (n: Node) =>
			(n.type.startsWith(PACKAGE_PREFIX) && ['create', 'acceptZeroconfOffer', 'refundHeldDeposits'].includes(String(n.parameters.operation))) ||
			(n.type === 'n8n-nodes-base.httpRequest' && (String(n.parameters.url).includes('/sandbox/') || (n.credentials !== undefined && 'httpHeaderAuth' in n.credentials)));
		const asks: string[] = [];
		for (const { file, wf } of examples) {
			for (const ask of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.slack' && n.parameters.operation === 'sendAndWait')) {
				asks.push(`${file}: ${ask.name}`);
				if (REPRICE_ASKS.includes(ask.name)) continue; // a Switch on the click, checked below
				const next = wf.connections[ask.name].main.flat().map((t) => wf.nodes.find((n) => n.name === t.node)!);
				expect({ ask: ask.name, next: next.map((n) => n.type) }).toEqual({ ask: ask.name, next: ['n8n-nodes-base.if'] });
				const conditions = (next[0].parameters.conditions as { conditions: Array<{ leftValue: string; operator: Record<string, unknown> }>; combinator: string });
				expect(conditions).toMatchObject({ combinator: 'and', conditions: [{ leftValue: '={{ $json.data?.approved === true }}', operator: { type: 'boolean', operation: 'true' } }] });
				expect(conditions.conditions).toHaveLength(1);
				const [approved, notApproved] = wf.connections[next[0].name].main.map((out) => out.map((t) => wf.nodes.find((n) => n.name === t.node)!));
				expect(approved.length).toBe(1);
				expect({ ask: ask.name, notApproved: notApproved.filter(pays).map((n) => n.name) }).toEqual({ ask: ask.name, notApproved: [] });
				expect(notApproved.length).toBe(1);
			}
		}
		expect(asks).toEqual([
			'01-recurring-payout.json: Ask a person',
			'01-recurring-payout.json: Ask a person: re-approval',
			'01-recurring-payout.json: Ask a person: refund or reject',
			'02-order-events-to-slack.json: Ask a person: re-approval',
			'02-order-events-to-slack.json: Ask a person: refund or reject',
			'06-approved-payout-qr.json: Ask for approval in Slack',
			'07-daily-reconciliation.json: Ask about held deposits',
		]);
		const six = byId('exApprovedPayout');
		expect(six.connections['Approved?'].main.map((out) => out.map((t) => t.node))).toEqual([['Create quote'], ['Ledger: not approved, nothing paid']]);
		const row = (six.nodes.find((n) => n.name === 'Ledger: not approved, nothing paid')!.parameters.columns as { value: Record<string, unknown> }).value;
		expect(row).toMatchObject({ status: "={{ $json.data?.approved === false ? 'not_approved' : 'approval_timed_out' }}", final: true });
	});

	it('answer a price re-approval only on a click: each answer a Switch output on data.approved, no answer (the fallback) calls nothing', () => {
		const OP_OF: Record<string, string> = { 'Approve Reprice': 'approveReprice', 'Reject Reprice': 'rejectReprice', 'Refund Reprice': 'refundReprice' };
		const REPRICE_OPS = Object.values(OP_OF);
		for (const id of ['exRecurringPayout', 'exOrderEventsSlack']) {
			const wf = byId(id);
			const node = (name: string) => wf.nodes.find((n) => n.name === name)!;
			const targets = (name: string) => wf.connections[name].main.map((out) => out.map((t) => t.node));
			type Rules = { values: Array<{ conditions: { conditions: Array<{ leftValue: string }> } }> };
			const ruleConditions = (name: string) => (node(name).parameters.rules as Rules).values.map((r) => r.conditions.conditions.map((c) => c.leftValue));
			expect({ id, ops: wf.nodes.filter((n) => REPRICE_OPS.includes(String(n.parameters.operation))).map((n) => [n.name, n.parameters.operation]) }).toEqual({ id, ops: Object.entries(OP_OF) });
			for (const name of Object.keys(OP_OF)) expect(node(name).parameters.orderId).toMatch(/^=\{\{ \$\('(Order status|Price re-approval\?)'\)\.(last|first)\(\)\.json(\.order)?\.id \}\}$/);
			expect(node('Approve Reprice').parameters.approvedMinAmountOut).toBeUndefined(); // the proposed minimum
			// the first ask: Approve, then (Bitcoin sources) a second ask for Refund or Reject, else Reject; no answer: the fallback
			expect(targets('Ask a person: re-approval')).toEqual([['Re-approval answer']]);
			const first = node('Re-approval answer');
			expect(ruleConditions('Re-approval answer')).toEqual([
				['={{ $json.data?.approved === true }}'],
				[expect.stringMatching(/^=\{\{ \$json\.data\?\.approved === false && .*\.sourceChain === 'bitcoin' \}\}$/)],
				['={{ $json.data?.approved === false }}'],
			]);
			expect(first.parameters.options).toMatchObject({ fallbackOutput: 'extra' });
			const fallback = id === 'exRecurringPayout' ? 'Ledger: re-approval not answered' : 'Post the re-approval decision';
			expect(targets('Re-approval answer')).toEqual([['Approve Reprice'], ['Ask a person: refund or reject'], ['Reject Reprice'], [fallback]]);
			expect(targets('Ask a person: refund or reject')).toEqual([['Refund or reject?']]);
			expect(ruleConditions('Refund or reject?')).toEqual([['={{ $json.data?.approved === true }}'], ['={{ $json.data?.approved === false }}']]);
			expect(targets('Refund or reject?')).toEqual([['Refund Reprice'], ['Reject Reprice'], [fallback]]);
			// nothing after no answer reaches the service
			expect(wf.connections[fallback]?.main.flat() ?? []).toEqual([]);
			// the message: the three figures in the destination asset, and the order link
			const message = String(node('Ask a person: re-approval').parameters.message);
			for (const f of ['proposedMinAmountOut', 'previousLockedMinAmountOut', 'latestExpectedAmountOut']) expect(message).toContain(`reprice.${f}Formatted ?? $json${id === 'exOrderEventsSlack' ? '.order' : ''}.reprice.${f}`);
			expect(message).toContain('destinationAsset');
			expect(message).toContain("$('Settings').first().json.orderLinkBase");
			expect((node('Ask a person: re-approval').parameters.approvalOptions as { values: unknown }).values).toMatchObject({ approvalType: 'double', approveLabel: 'Approve new minimum' });
		}
		const one = byId('exRecurringPayout');
		expect(one.connections['What now?'].main.map((out) => out.map((t) => t.node))).toEqual([['Ledger: final'], ['Ask a person'], ['Ask a person: re-approval'], ['Ledger: status']]);
		const note = (one.nodes.find((n) => n.name === 'Ledger: re-approval not answered')!.parameters.columns as { value: Record<string, string> }).value;
		expect(note.note).toContain('not answered: nothing was sent');
		expect(note).not.toHaveProperty('final');
		expect(String(one.nodes.find((n) => n.name === 'Ask a person')!.parameters.message)).toContain('$json.zeroconfOffer.confirmationProbability');
	});

	it('example 1 takes a new quote when a lost answer is replayed after its quote expired (the wallet pays under the payout reference)', () => {
		const quote = byId('exRecurringPayout').nodes.find((n) => n.name === 'Quote')!;
		expect(quote.parameters.options).toMatchObject({ idempotencyKey: "={{ $('One payout').first().json.payoutId }}", requoteWhenExpired: true });
	});

	it('read every setting from their Settings node', () => {
		for (const id of ['exRecurringPayout', 'exOrderEventsSlack', 'exDailyReconciliation']) {
			const wf = byId(id);
			const settings = wf.nodes.find((n) => n.name === 'Settings')!;
			const names = new Set((settings.parameters.assignments as { assignments: Array<{ name: string }> }).assignments.map((a) => a.name));
			const text = JSON.stringify(wf.nodes.filter((n) => n !== settings));
			const used = new Set([...text.matchAll(/\$\('Settings'\)\.first\(\)\.json\.(\w+)/g)].map((m) => m[1]));
			// never a copy of the settings carried in item data (a payout row or a caller could change it)
			expect({ id, fromItems: text.match(/json\.settings\b/g) ?? [] }).toEqual({ id, fromItems: [] });
			expect({ id, unknown: [...used].filter((u) => !names.has(u)) }).toEqual({ id, unknown: [] });
			if (id === 'exRecurringPayout') expect([...used].sort()).toEqual(expect.arrayContaining(['approvalChannel', 'depositCheckSeconds', 'intentCheckSeconds', 'maxOrderChecks', 'orderCheckSeconds', 'quoteGraceSeconds', 'walletUrl']));
		}
	});

	it('that a team leaves running never wait inside a node: long waits go through n8n\'s Wait node', () => {
		for (const id of UNATTENDED) {
			for (const n of byId(id).nodes) expect({ id, node: n.name, waitUntilFinal: n.parameters.waitUntilFinal === true }).toEqual({ id, node: n.name, waitUntilFinal: false });
		}
		const waits = byId('exRecurringPayout').nodes.filter((n) => n.type === 'n8n-nodes-base.wait');
		expect(waits.map((n) => n.parameters.amount)).toEqual(waits.map(() => expect.stringMatching(/^=\{\{ \$\('Settings'\)\.first\(\)\.json\.\w+Seconds \}\}$/)));
		expect(waits.map((n) => n.name).sort()).toEqual(['Wait for the deposit', 'Wait for the intent', 'Wait for the order']);
	});
	it('name example 8 as their error workflow; it posts the failed workflow, node, error and execution link to the channel the examples post to', () => {
		for (const { file, wf } of examples) {
			expect({ file, errorWorkflow: wf.settings?.errorWorkflow }).toEqual({ file, errorWorkflow: wf.id === ERROR_WORKFLOW ? undefined : ERROR_WORKFLOW });
		}
		const alerts = byId(ERROR_WORKFLOW);
		const trigger = alerts.nodes.find((n) => n.type === 'n8n-nodes-base.errorTrigger')!;
		const [post] = alerts.connections[trigger.name].main.flat().map((t) => alerts.nodes.find((n) => n.name === t.node)!);
		expect(post).toMatchObject({ type: 'n8n-nodes-base.slack', parameters: { select: 'channel', channelId: { value: '#payouts' } } });
		// the channel of every example's Settings that names one
		const channels = examples.flatMap(({ wf }) =>
			((wf.nodes.find((n) => n.name === 'Settings')?.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> } | undefined)?.assignments ?? [])
				.filter((a) => /channel$/i.test(a.name))
				.map((a) => a.value),
		);
		expect(new Set(channels)).toEqual(new Set(['#payouts']));
		for (const part of ['$json.workflow.name', '$json.execution.lastNodeExecuted', '$json.execution?.error?.message', '$json.execution?.url']) expect(String(post.parameters.text)).toContain(part);
	});

	it('run Partner > Check Settings right after their Settings node, with the credential the flow uses', () => {
		const checked: string[] = [];
		for (const { file, wf } of examples) {
			const settings = wf.nodes.find((n) => n.name === 'Settings');
			if (!settings) continue;
			checked.push(file);
			expect({ file, next: wf.connections.Settings.main.map((out) => out.map((t) => t.node)) }).toEqual({ file, next: [['Check settings']] });
			const check = wf.nodes.find((n) => n.name === 'Check settings')!;
			expect(check).toMatchObject({ type: `${PACKAGE_PREFIX}orchestration`, parameters: { resource: 'partner', operation: 'checkSettings' } });
			// the settings checked are the item Settings made (the default, {{ $json }})
			expect(check.parameters.settings).toBeUndefined();
			const others = wf.nodes.filter((n) => n !== check && n.credentials !== undefined && 'orchestrationServerApi' in n.credentials);
			expect(others.length).toBeGreaterThan(0);
			for (const n of others) expect({ file, node: n.name, credentials: n.credentials }).toEqual({ file, node: n.name, credentials: check.credentials });
			expect(wf.connections['Check settings'].main.flat().length).toBeGreaterThan(0);
		}
		expect(checked).toEqual(['01-recurring-payout.json', '02-order-events-to-slack.json', '07-daily-reconciliation.json']);
	});
});
