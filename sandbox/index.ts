import type { AddressInfo } from 'node:net';
import { SandboxClock } from './clock';
import { loadConfig, type SandboxConfig, type SandboxConfigInput } from './config';
import { FaultInjector } from './faults';
import { buildGatewayApp, type GatewayApp } from './gateway/app';
import { buildOrchestrationApp, type OrchestrationApp } from './orchestration/app';

export type { SandboxConfig, SandboxConfigInput, Switches, SwitchesInput } from './config';
export type { FaultRule } from './faults';
export { FaultInjector } from './faults';
export { SandboxClock } from './clock';
export { webhookSignature } from './orchestration/deliveries';

export interface StartSandboxOptions {
	/** Interface to listen on, default 127.0.0.1. */
	host?: string;
	/** 0 (the default) picks a free port. */
	orchestrationPort?: number;
	gatewayPort?: number;
	/** Time factor: every spec delay runs this many times faster (default 1). */
	timeScale?: number;
	/** A JSON file merged over sandbox/config.default.json. */
	configPath?: string;
	/** Merged over the defaults and the file; `switches` merge deeply. */
	config?: SandboxConfigInput;
	/** A clock to use instead of a new SandboxClock(timeScale): tests inject a virtual clock. */
	clock?: SandboxClock;
	/** Default true: no request logging. false turns on the orchestration app's log (secrets redacted). */
	quiet?: boolean;
}

/** One seeded key as GET /sandbox/keys lists it. */
export interface SandboxKeyInfo {
	key: string;
	label: string;
	type: 'server' | 'client';
	partnerId: string;
	scopes: string[];
	originMode: string;
	allowedOrigins: string[];
	accountStatus: 'approved' | 'pending' | 'rejected';
	disabled: boolean;
	affiliateId?: string;
}

/** The JSON of GET /sandbox/keys. */
export interface SandboxKeys {
	orchestration: { baseUrl: string; keys: SandboxKeyInfo[] };
	gateway: { baseUrl: string; chainId: number; privateKeys: string[] };
}

export interface Sandbox {
	orchestrationUrl: string;
	gatewayUrl: string;
	config: SandboxConfig;
	keys: SandboxKeys;
	clock: SandboxClock;
	orchestration: OrchestrationApp;
	gateway: GatewayApp;
	/** Faults of the gateway app, set through POST /sandbox/faults with `service: "gateway"`. */
	gatewayFaults: FaultInjector;
	close(): Promise<void>;
}

export function describeKeys(config: SandboxConfig, orchestrationUrl: string, gatewayUrl: string): SandboxKeys {
	const status = new Map(config.partners.map((p) => [p.partnerId, p.accountStatus]));
	return {
		orchestration: {
			baseUrl: orchestrationUrl,
			keys: config.keys.map((k) => ({
				key: k.key,
				label: k.label,
				type: k.type,
				partnerId: k.partnerId,
				scopes: k.type === 'client' ? [...k.scopes] : [],
				originMode: k.originMode,
				allowedOrigins: [...k.allowedOrigins],
				accountStatus: status.get(k.partnerId) ?? 'approved',
				disabled: k.disabled,
				...(k.affiliateId ? { affiliateId: k.affiliateId } : {}),
			})),
		},
		gateway: { baseUrl: gatewayUrl, chainId: config.gateway.chainId, privateKeys: [...config.gateway.privateKeys] },
	};
}

function urlOf(address: AddressInfo): string {
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	return `http://${host}:${address.port}`;
}

/** Starts the orchestration and gateway emulators on `host` (both in this process). */
export async function startSandbox(opts: StartSandboxOptions = {}): Promise<Sandbox> {
	const host = opts.host ?? '127.0.0.1';
	const config = loadConfig(opts.configPath, opts.config);
	const clock = opts.clock ?? new SandboxClock(opts.timeScale ?? 1);
	// GET /sandbox/keys needs both URLs, known only once both services listen.
	const published: { keys?: SandboxKeys } = {};
	const orchestration = await buildOrchestrationApp({ config, clock, keysJson: () => published.keys, logger: opts.quiet === false });
	const gateway = await buildGatewayApp({ clock, chainId: config.gateway.chainId, seedPrivateKeys: config.gateway.privateKeys });
	const gatewayFaults = new FaultInjector();
	gatewayFaults.install(gateway.app);
	orchestration.ctx.gatewayFaults = gatewayFaults;
	try {
		await orchestration.app.listen({ host, port: opts.orchestrationPort ?? 0 });
		await gateway.app.listen({ host, port: opts.gatewayPort ?? 0 });
	} catch (err) {
		await Promise.allSettled([orchestration.close(), gateway.close()]);
		throw err;
	}
	const orchestrationUrl = urlOf(orchestration.app.server.address() as AddressInfo);
	const gatewayUrl = urlOf(gateway.app.server.address() as AddressInfo);
	const keys = describeKeys(config, orchestrationUrl, gatewayUrl);
	published.keys = keys;
	let closed: Promise<void> | undefined;
	return {
		orchestrationUrl, gatewayUrl, config, keys, clock, orchestration, gateway, gatewayFaults,
		close: () => {
			closed ??= Promise.allSettled([orchestration.close(), gateway.close()]).then(() => clock.cancelAll());
			return closed;
		},
	};
}
