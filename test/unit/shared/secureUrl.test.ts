import { baseUrlOf, insecureUrlReason, isLoopbackHost, isUnderBase } from '../../../nodes/shared/secureUrl';

describe('secure service URLs', () => {
	it.each(['https://gateway.example.com', 'https://api.example.com/', 'http://127.0.0.1:3000', 'http://127.255.0.9', 'http://localhost:5678/x', 'http://[::1]:8080', 'http://127.1'])(
		'accepts %s',
		(url) => expect(insecureUrlReason(url)).toBeUndefined(),
	);

	it.each([
		['http://gateway.example', /must start with https:\/\//],
		['http://127.0.0.1.evil.example', /must start with https:\/\//],
		['http://localhost.evil.example', /must start with https:\/\//],
		['http://10.0.0.5', /must start with https:\/\//],
		['http://[::2]', /must start with https:\/\//],
		['ftp://files.example', /scheme ftp: is not https/],
		['gateway.example.com', /not a valid URL/],
		['', /empty/],
	])('refuses %s and says why', (url, reason) => {
		expect(insecureUrlReason(url)).toMatch(reason);
	});

	it('knows loopback hosts only', () => {
		expect(['localhost', '127.0.0.1', '127.9.9.9', '[::1]'].every(isLoopbackHost)).toBe(true);
		expect(['128.0.0.1', '127.0.0.256', 'localhost2', '0.0.0.0'].some(isLoopbackHost)).toBe(false);
	});

	it('matches a base exactly: no look-alike host or path prefix', () => {
		const base = baseUrlOf(' https://gw.example.com/ ');
		expect(base).toBe('https://gw.example.com');
		expect(isUnderBase('https://gw.example.com/api/v1/execute', base)).toBe(true);
		expect(isUnderBase('https://gw.example.com.evil.example/api', base)).toBe(false);
		expect(isUnderBase('https://gw.example.community/api', base)).toBe(false);
		expect(isUnderBase('https://other.example/api', base)).toBe(false);
		expect(isUnderBase('https://other.example/api', '')).toBe(false);
	});
});
