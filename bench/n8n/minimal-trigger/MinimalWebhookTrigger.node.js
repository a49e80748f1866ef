/**
 * Test-only baseline for bench/n8n/trigger-modes.ts: the least a community webhook trigger can do
 * (verify nothing, start one run with the body). Loaded through N8N_CUSTOM_EXTENSIONS like the
 * package, so it pays the same per-request costs as the Orchestration Trigger. Never shipped.
 */
class MinimalWebhookTrigger {
	constructor() {
		this.description = {
			displayName: 'Minimal Webhook Trigger',
			name: 'minimalWebhookTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Starts a run for every POST (benchmark baseline)',
			defaults: { name: 'Minimal Webhook Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: 'noData', path: 'webhook' }],
			properties: [],
		};
	}

	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}

module.exports = { MinimalWebhookTrigger };
