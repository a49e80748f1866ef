/**
 * Partner > Check Settings: a flow's settings that hold an http(s) URL checked against where the
 * credential reaches. A sandbox URL (loopback, or a host or path naming "sandbox") in a flow whose
 * credential reaches the live service would send people and money the wrong way. Pure.
 */
import { isLoopbackHost } from '../secureUrl';

/** Where a credential's base URL reaches: the live service, or a sandbox or test service. */
export type ServiceEnvironment = 'live' | 'test';

/** One setting that points at a sandbox. */
export interface SandboxSetting {
	name: string;
	/** The URL as shown in messages: no user, password, query or fragment (they may hold a secret). */
	shown: string;
}

const SHOWN_MAX = 120;

function parsedHttpUrl(value: string): URL | undefined {
	const text = value.trim();
	if (!/^https?:\/\//i.test(text)) return undefined;
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

/** A URL for a message: scheme, host, port and path only, at most SHOWN_MAX characters. */
export function shownUrl(url: URL): string {
	const text = `${url.protocol}//${url.host}${url.pathname}`;
	return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}...` : text;
}

/** A loopback host, or a host or path that names a sandbox (sandbox.example.com, /sandbox/orders). */
function namesSandbox(url: URL): boolean {
	if (isLoopbackHost(url.hostname)) return true;
	let path = url.pathname;
	try {
		path = decodeURIComponent(path);
	} catch {
		// a malformed escape: the path as written
	}
	return /sandbox/i.test(url.hostname) || /sandbox/i.test(path);
}

/**
 * Where a credential's base URL reaches: live when it is https on a host that is not loopback and
 * names no sandbox; test otherwise (the package's sandbox, a local or staging service).
 */
export function serviceEnvironmentOf(baseUrl: string): ServiceEnvironment {
	const url = parsedHttpUrl(baseUrl);
	return url !== undefined && url.protocol === 'https:' && !namesSandbox(url) ? 'live' : 'test';
}

/** The top-level text members of `settings` that are http(s) URLs pointing at a sandbox. */
export function sandboxSettingsOf(settings: Record<string, unknown>): SandboxSetting[] {
	const found: SandboxSetting[] = [];
	for (const [name, value] of Object.entries(settings)) {
		if (typeof value !== 'string') continue;
		const url = parsedHttpUrl(value);
		if (url !== undefined && namesSandbox(url)) found.push({ name, shown: shownUrl(url) });
	}
	return found;
}

/** Why a flow may not go on: the message and a description naming every setting to change. */
export interface SettingsProblem {
	message: string;
	description: string;
	settings: SandboxSetting[];
}

/**
 * The result of the check: the environment the credential reaches, or the problem when it reaches
 * the live service and a setting still points at a sandbox.
 */
export function checkSettings(
	settings: Record<string, unknown>,
	baseUrl: string,
): { serviceEnvironment: ServiceEnvironment; problem?: SettingsProblem } {
	const serviceEnvironment = serviceEnvironmentOf(baseUrl);
	if (serviceEnvironment !== 'live') return { serviceEnvironment };
	const wrong = sandboxSettingsOf(settings);
	if (wrong.length === 0) return { serviceEnvironment };
	const base = parsedHttpUrl(baseUrl);
	const live = base === undefined ? baseUrl : shownUrl(base).replace(/\/$/, '');
	const named = wrong.map((s) => `${s.name} points at the sandbox (${s.shown})`).join(', ');
	const them = wrong.length === 1 ? 'it' : 'them';
	return {
		serviceEnvironment,
		problem: {
			message: `${named} while this credential reaches the live service (${live}): change ${them} in the Settings node`,
			description: `Settings that point at the sandbox: ${wrong.map((s) => s.name).join(', ')}. Set each to its address on the live service (see the README, "Going live"), or use a credential of the sandbox. Nothing was sent to the service.`,
			settings: wrong,
		},
	};
}
