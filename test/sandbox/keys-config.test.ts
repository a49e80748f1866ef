import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as nodeLists from '../../nodes/shared/orchestration/enums';
import { CLIENT_KEY_SCOPES, ORIGIN_MODES } from '../../sandbox/orchestration/spec';
import { loadConfig } from '../../sandbox/config';
import { client, quoteBody, SERVER, start } from './helpers';

describe('GET /sandbox/keys and the seeds', () => {
	it('lists both services with the documented seeds', async () => {
		const { sb, api } = await start();
		try {
			const r = await api.get('/sandbox/keys');
			expect(r.status).toBe(200);
			expect(r.body).toEqual(sb.keys);
			const { orchestration, gateway } = r.body;
			expect(orchestration.baseUrl).toBe(sb.orchestrationUrl);
			expect(gateway).toMatchObject({ baseUrl: sb.gatewayUrl, chainId: 3637 });
			expect(gateway.privateKeys.every((k: string) => /^[0-9a-f]{64}$/.test(k))).toBe(true);
			const keys = orchestration.keys as Array<Record<string, unknown> & { scopes: string[] }>;
			for (const k of keys) {
				expect(Object.keys(k)).toEqual(expect.arrayContaining(['key', 'type', 'partnerId', 'scopes', 'originMode', 'allowedOrigins', 'accountStatus', 'disabled']));
				expect(k.key).toMatch(k.type === 'server' ? /^fn_sandbox_/ : /^fnp_sandbox_/);
			}
			const clients = keys.filter((k) => k.type === 'client');
			for (const scope of CLIENT_KEY_SCOPES) expect(clients.some((k) => k.scopes.includes(scope))).toBe(true);
			for (const mode of ORIGIN_MODES) expect(clients.some((k) => k.originMode === mode)).toBe(true);
			expect(clients.some((k) => k.originMode === 'browser' && (k.allowedOrigins as string[]).length === 0)).toBe(true);
			expect(clients.some((k) => k.scopes.length === CLIENT_KEY_SCOPES.length)).toBe(true);
			expect(clients.some((k) => k.scopes.length === 0)).toBe(true);
			expect(keys.some((k) => k.accountStatus === 'pending')).toBe(true);
			expect(keys.some((k) => k.accountStatus === 'rejected')).toBe(true);
			expect(keys.some((k) => k.disabled === true)).toBe(true);
			expect(keys.some((k) => k.affiliateId === 'aff_sandbox_alpha' && k.scopes.includes('affiliates:read'))).toBe(true);
			const partner2 = keys.filter((k) => k.partnerId === 'partner_sandbox_2');
			expect(new Set(partner2.map((k) => k.type))).toEqual(new Set(['server', 'client']));
			// the gateway really runs with that chain id
			const info = await client(sb.gatewayUrl).get('/api/v1/network/info');
			expect(info.body.execution.chainId).toBe(3637);
		} finally {
			await sb.close();
		}
	});
});

describe('config', () => {
	it('merges a config file and inline overrides over the defaults', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
		const file = join(dir, 'sandbox.json');
		writeFileSync(file, JSON.stringify({
			keys: [{ key: 'fn_custom_server', type: 'server', partnerId: 'partner_sandbox_1' }],
			switches: { statusShape: 'flat', turnstile: { enabled: true } },
		}));
		const { sb, api } = await start({ configPath: file, config: { switches: { rateLimits: { enabled: true } } } });
		try {
			const cfg = (await api.get('/sandbox/config')).body.switches;
			expect(cfg).toMatchObject({ statusShape: 'flat', turnstile: { enabled: true, validToken: 'sandbox-turnstile-pass' } });
			expect(cfg.rateLimits).toMatchObject({ enabled: true, quote: { perKey: 600, perKeyIp: 60 }, submit: { perKey: 120, perKeyIp: 10 } });
			expect(sb.keys.orchestration.keys.map((k) => k.key)).toEqual(['fn_custom_server']);
			expect((await api.post('/v1/orchestration/quote', quoteBody(), { key: 'fn_custom_server' })).status).toBe(200);
			expect((await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER })).status).toBe(401);
		} finally {
			await sb.close();
		}
	});

	it('rejects invalid configs with the offending path', () => {
		expect(() => loadConfig(undefined, { switches: { statusShape: 'round' as 'flat' } })).toThrow(/switches\.statusShape/);
		expect(() => loadConfig(undefined, { keys: [{ key: 'fn_x', type: 'client', partnerId: 'partner_sandbox_1' }] })).toThrow(/client keys start with fnp_/);
		expect(() => loadConfig(undefined, { keys: [{ key: 'fn_x', type: 'server', partnerId: 'nobody' }] })).toThrow(/unknown partner/);
	});

	it('flips switches at run time and restores them on reset, clearing runtime state but not seeds', async () => {
		const { sb, api } = await start();
		try {
			const set = await api.post('/sandbox/config', { approvalEnforced: true, faults: [{ path: '/v2/orchestration/routes', mode: 'status', status: 500, times: 'always' }] });
			expect(set.body.switches.approvalEnforced).toBe(true);
			expect((await api.get('/v2/orchestration/routes')).status).toBe(500);
			expect((await api.post('/sandbox/config', { statusShape: 'sideways' })).status).toBe(400);
			await api.post('/v1/orchestration/quote', quoteBody(), { key: SERVER });
			await api.post('/v1/webhooks', { url: 'https://example.test/h' }, { key: SERVER });
			expect((await api.post('/sandbox/reset')).body).toEqual({ ok: true });
			expect((await api.get('/sandbox/config')).body.switches.approvalEnforced).toBe(false);
			expect((await api.get('/v2/orchestration/routes')).status).toBe(200);
			expect((await api.get('/sandbox/quotes')).body.quotes).toEqual([]);
			expect((await api.get('/sandbox/webhooks')).body.webhooks).toEqual([]);
			expect((await api.get('/v1/affiliates?includeDisabled=true', { key: SERVER })).body.affiliates).toHaveLength(3);
			expect((await api.get('/sandbox/health')).body).toEqual({ ok: true });
		} finally {
			await sb.close();
		}
	});
});

/**
 * Not the oracle: the sandbox's seeds follow its own reading of spec §5 (sandbox/orchestration/spec.ts);
 * the nodes keep theirs. Both must name the same scopes and origin modes, and the seeded keys cover
 * every one the nodes know.
 */
describe('cross-check: sandbox and nodes agree', () => {
	it('on the client-key scopes and origin modes of spec §5, and the seeds cover all of the nodes\'', async () => {
		expect([...nodeLists.CLIENT_KEY_SCOPES].sort()).toEqual([...CLIENT_KEY_SCOPES].sort());
		expect([...nodeLists.ORIGIN_MODES].sort()).toEqual([...ORIGIN_MODES].sort());
		const { sb, api } = await start();
		try {
			const keys = (await api.get('/sandbox/keys')).body.orchestration.keys as Array<{ type: string; scopes: string[]; originMode: string }>;
			const clients = keys.filter((k) => k.type === 'client');
			for (const scope of nodeLists.CLIENT_KEY_SCOPES) expect({ scope, seeded: clients.some((k) => k.scopes.includes(scope)) }).toEqual({ scope, seeded: true });
			for (const mode of nodeLists.ORIGIN_MODES) expect({ mode, seeded: clients.some((k) => k.originMode === mode) }).toEqual({ mode, seeded: true });
		} finally {
			await sb.close();
		}
	});
});
