import { checkSettings, sandboxSettingsOf, serviceEnvironmentOf } from '../../../nodes/shared/orchestration/settingsCheck';

const LIVE = 'https://api.example.com';

describe('serviceEnvironmentOf: where a credential reaches', () => {
	it.each([
		['https://api.example.com', 'live'],
		['https://api.example.com/', 'live'],
		['https://orchestration.partner.io:8443/base', 'live'],
		['http://127.0.0.1:8787', 'test'],
		['http://localhost:8787', 'test'],
		['https://localhost:8443', 'test'],
		['https://127.0.0.2', 'test'],
		['https://[::1]:8443', 'test'],
		['https://sandbox.example.com', 'test'],
		['https://api.example.com/sandbox', 'test'],
		['http://api.example.com', 'test'],
		['', 'test'],
		['not a url', 'test'],
	])('%s is %s', (base, environment) => {
		expect(serviceEnvironmentOf(base)).toBe(environment);
	});
});

describe('sandboxSettingsOf: settings that point at a sandbox', () => {
	it('finds loopback hosts and hosts or paths naming a sandbox, in http and https', () => {
		const found = sandboxSettingsOf({
			orderLinkBase: 'http://127.0.0.1:8787/sandbox/orders/',
			walletUrl: 'https://custody.example.com/v1/transfers',
			explorer: 'https://sandbox.explorer.example.com/tx/',
			statusPage: 'https://status.example.com/Sandbox/',
			local: 'http://localhost:3000/hook',
			channel: '#payouts',
			depositCheckSeconds: 30,
			nested: { url: 'http://127.0.0.1/' },
			ftp: 'ftp://127.0.0.1/file',
		});
		expect(found.map((s) => s.name)).toEqual(['orderLinkBase', 'explorer', 'statusPage', 'local']);
	});

	it('shows no user, password, query or fragment of a URL (they may hold a secret)', () => {
		const [found] = sandboxSettingsOf({ walletUrl: 'http://user:s3cret@127.0.0.1:9000/pay?token=t0ken#frag' });
		expect(found).toEqual({ name: 'walletUrl', shown: 'http://127.0.0.1:9000/pay' });
	});

	it('keeps a long URL short in the message', () => {
		const [found] = sandboxSettingsOf({ orderLinkBase: `http://127.0.0.1/${'a'.repeat(500)}` });
		expect(found.shown.length).toBeLessThanOrEqual(123);
	});
});

describe('checkSettings', () => {
	const shipped = { orderLinkBase: 'http://127.0.0.1:8787/sandbox/orders/', channel: '#payouts' };

	it('a sandbox URL against a live credential names the setting, its value and the live service', () => {
		const { serviceEnvironment, problem } = checkSettings(shipped, `${LIVE}/`);
		expect(serviceEnvironment).toBe('live');
		expect(problem?.message).toBe(
			'orderLinkBase points at the sandbox (http://127.0.0.1:8787/sandbox/orders/) while this credential reaches the live service (https://api.example.com): change it in the Settings node',
		);
		expect(problem?.description).toMatch(/^Settings that point at the sandbox: orderLinkBase\./);
	});

	it('names every such setting', () => {
		const { problem } = checkSettings({ ...shipped, walletUrl: 'https://wallet-sandbox.example.com/v1' }, LIVE);
		expect(problem?.message).toMatch(/^orderLinkBase points at the sandbox \(.*\), walletUrl points at the sandbox \(https:\/\/wallet-sandbox\.example\.com\/v1\) while .*: change them in the Settings node$/);
		expect(problem?.settings.map((s) => s.name)).toEqual(['orderLinkBase', 'walletUrl']);
	});

	it('the same settings against the sandbox credential pass as test', () => {
		expect(checkSettings(shipped, 'http://127.0.0.1:8787')).toEqual({ serviceEnvironment: 'test' });
	});

	it('live settings against a live credential pass as live', () => {
		expect(checkSettings({ orderLinkBase: 'https://app.example.com/orders/', walletUrl: 'https://custody.example.com/v1' }, LIVE)).toEqual({ serviceEnvironment: 'live' });
	});
});
