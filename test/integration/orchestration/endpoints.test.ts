/**
 * The Orchestration node's endpoint table (nodes/Orchestration/transport/endpoints.ts) against the
 * sandbox, which keeps its own reading of the spec: every row is served; an action needs an
 * idempotency key; a server-only row refuses client keys (403 forbidden); a client key without the
 * row's scope gets 403 scope_required. Over HTTP, one probe per rule and row.
 */
import { startSandbox, type Sandbox } from '../../../sandbox';
import { ENDPOINTS, endpointKey, type Endpoint } from '../../../nodes/Orchestration/transport/endpoints';

const SERVER = 'fn_sandbox_server_partner1';
const ALL_SCOPES = 'fnp_sandbox_all_scopes';
const NO_SCOPES = 'fnp_sandbox_no_scopes';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());

/** The row's path with a made-up identifier in each `{name}`. */
const concrete = (e: Endpoint) => e.path.replace(/\{(\w+)\}/g, (_, name: string) => `probe_${name.toLowerCase()}`);

async function send(e: Endpoint, opts: { key?: string; idempotencyKey?: string }): Promise<{ status: number; code?: string }> {
	const headers: Record<string, string> = { accept: 'application/json' };
	if (opts.key) headers.authorization = `Bearer ${opts.key}`;
	if (opts.idempotencyKey) headers['x-idempotency-key'] = opts.idempotencyKey;
	const hasBody = e.method !== 'GET' && e.method !== 'DELETE';
	if (hasBody) headers['content-type'] = 'application/json';
	const res = await fetch(`${sb.orchestrationUrl}${concrete(e)}`, { method: e.method, headers, body: hasBody ? '{}' : undefined });
	const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
	return { status: res.status, code: body.error?.code };
}

const rows = ENDPOINTS.map((e) => [endpointKey(e), e] as const);

describe('the endpoint table and the sandbox agree', () => {
	it.each(rows)('%s is served (not a 404 of the router, not a 405)', async (_, e) => {
		const { status, code } = await send(e, { key: SERVER, idempotencyKey: `probe-${Math.random()}` });
		// an unknown identifier may be not_found; an unrouted path has no error code of the service
		expect({ status, routed: status !== 404 || code === 'not_found' }).toMatchObject({ routed: true });
		expect(status).not.toBe(405);
	});

	it.each(rows.filter(([, e]) => e.action))('%s needs an idempotency key (400 missing_idempotency_key)', async (_, e) => {
		expect(await send(e, { key: SERVER })).toEqual({ status: 400, code: 'missing_idempotency_key' });
	});

	it.each(rows.filter(([, e]) => e.keys === 'server'))('%s refuses client keys (403 forbidden)', async (_, e) => {
		expect(await send(e, { key: ALL_SCOPES, idempotencyKey: `probe-${Math.random()}` })).toEqual({ status: 403, code: 'forbidden' });
	});

	it.each(rows.filter(([, e]) => e.scope !== undefined))('%s needs its client-key scope (403 scope_required without it)', async (_, e) => {
		expect(await send(e, { key: NO_SCOPES, idempotencyKey: `probe-${Math.random()}` })).toEqual({ status: 403, code: 'scope_required' });
	});

	it.each(rows.filter(([, e]) => e.keys === 'public'))('%s answers without a key', async (_, e) => {
		expect((await send(e, {})).status).toBe(200);
	});
});
