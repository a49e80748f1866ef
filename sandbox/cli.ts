import { parseArgs } from 'node:util';
import { type SandboxKeys, startSandbox, type SwitchesInput } from './index';

/** `npm run sandbox`: both emulators on 127.0.0.1, URLs and keys printed, stopped by SIGINT/SIGTERM. */
const HELP = `Usage: npm run sandbox -- [options]

  --host <addr>                interface to listen on (default 127.0.0.1)
  --orchestration-port <n>     orchestration port (default 8787, env ORCH_SANDBOX_PORT; 0 = free port)
  --gateway-port <n>           gateway port (default 8788, env GATEWAY_SANDBOX_PORT; 0 = free port)
  --time-scale <x>             run every spec delay x times faster (default 1, env SANDBOX_TIME_SCALE)
  --config <file>              JSON merged over sandbox/config.default.json
  --large-catalogue            serve at least 4,000 route entries
  --approval-enforced          pending and rejected accounts get 403
  --turnstile                  submit and onramp need cf-turnstile-response for client keys
  --rate-limits                client-key rate limits (public-notes defaults)
  --duplicate-deliveries       deliver every webhook twice
  --live-webhook-envelope      webhook envelopes as the live service sends them: timestamp per attempt, data without updatedAt
  --status-shape <nested|flat> status answer layout (default nested)
  --help                       this text
`;

function numberOption(flag: string, value: string | undefined, fallback: number): number {
	if (value === undefined || value === '') return fallback;
	const n = Number(value);
	if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a non-negative number, got ${JSON.stringify(value)}`);
	return n;
}

function printKeys(keys: SandboxKeys, timeScale: number): void {
	const lines = [
		`Orchestration sandbox: ${keys.orchestration.baseUrl}`,
		`Execution gateway sandbox: ${keys.gateway.baseUrl} (chainId ${keys.gateway.chainId})`,
		`Time scale: ${timeScale}x`,
		`Keys as JSON: ${keys.orchestration.baseUrl}/sandbox/keys`,
		'',
		'Orchestration keys (sandbox only):',
		...keys.orchestration.keys.map((k) => {
			const flags = [k.accountStatus !== 'approved' ? k.accountStatus : '', k.disabled ? 'disabled' : ''].filter(Boolean).join(',');
			const scopes = k.type === 'client' ? ` scopes=[${k.scopes.join(' ')}] origin=${k.originMode}` : '';
			return `  ${k.key.padEnd(38)} ${k.type.padEnd(6)} ${k.partnerId}${scopes}${flags ? ` (${flags})` : ''}`;
		}),
		'',
		'Gateway private keys (TEST ONLY, never fund them):',
		...keys.gateway.privateKeys.map((k) => `  ${k}`),
		'',
		'Press Ctrl+C to stop.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			host: { type: 'string' },
			'orchestration-port': { type: 'string' },
			'gateway-port': { type: 'string' },
			'time-scale': { type: 'string' },
			config: { type: 'string' },
			'large-catalogue': { type: 'boolean' },
			'approval-enforced': { type: 'boolean' },
			turnstile: { type: 'boolean' },
			'rate-limits': { type: 'boolean' },
			'duplicate-deliveries': { type: 'boolean' },
			'live-webhook-envelope': { type: 'boolean' },
			'status-shape': { type: 'string' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(HELP);
		return;
	}
	const env = process.env;
	const timeScale = numberOption('--time-scale', values['time-scale'] ?? env.SANDBOX_TIME_SCALE, 1);
	const switches: SwitchesInput = {};
	if (values['large-catalogue']) switches.largeCatalogue = true;
	if (values['approval-enforced']) switches.approvalEnforced = true;
	if (values.turnstile) switches.turnstile = { enabled: true };
	if (values['rate-limits']) switches.rateLimits = { enabled: true };
	if (values['duplicate-deliveries']) switches.duplicateDeliveries = true;
	if (values['live-webhook-envelope']) switches.webhookEnvelope = { timestamp: 'delivery', updatedAt: false };
	if (values['status-shape'] !== undefined) {
		if (values['status-shape'] !== 'nested' && values['status-shape'] !== 'flat') throw new Error('--status-shape must be nested or flat');
		switches.statusShape = values['status-shape'];
	}
	const sandbox = await startSandbox({
		host: values.host,
		orchestrationPort: numberOption('--orchestration-port', values['orchestration-port'] ?? env.ORCH_SANDBOX_PORT, 8787),
		gatewayPort: numberOption('--gateway-port', values['gateway-port'] ?? env.GATEWAY_SANDBOX_PORT, 8788),
		timeScale,
		configPath: values.config,
		config: { switches },
	});
	printKeys(sandbox.keys, timeScale);
	const stop = (signal: string) => {
		process.stdout.write(`\n${signal}: stopping the sandbox\n`);
		void sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
	process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});
