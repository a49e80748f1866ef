/**
 * Issue 20: the trigger's Automatic registration says where its secret is kept (the workflow's
 * static data, readable by anyone with read access to the workflow, n8n's public API included) and
 * points to Existing Endpoint with the encrypted credential; Existing Endpoint does not show it.
 */
import { NodeHelpers, type INodeParameters } from 'n8n-workflow';

import { OrchestrationTrigger } from '../../../nodes/OrchestrationTrigger/OrchestrationTrigger.node';

const description = new OrchestrationTrigger().description;
const notice = description.properties.find((p) => p.name === 'automaticSecretNotice')!;

/** Whether n8n's editor shows `notice` for these parameters on this node version. */
function shown(registration: string, version: number): boolean {
	const parameters: INodeParameters = { registration };
	return NodeHelpers.displayParameter(parameters, notice, { typeVersion: version } as never, description);
}

describe('Orchestration Trigger: where the automatic registration keeps its secret', () => {
	it('is a notice that names the static data, who can read it, and the encrypted alternative', () => {
		expect(notice).toMatchObject({ type: 'notice', default: '' });
		const text = String(notice.displayName);
		expect(text).toMatch(/secret in this workflow's static data/);
		expect(text).toMatch(/anyone who can read this workflow/);
		expect(text).toMatch(/n8n's public API/);
		expect(text).toMatch(/Existing Endpoint with an Orchestration Webhook Secret credential/);
	});

	it.each([1, 1.1])('shows on Automatic only (version %s)', (version) => {
		expect(shown('automatic', version)).toBe(true);
		expect(shown('existingEndpoint', version)).toBe(false);
	});

	it('names options the node really has', () => {
		const registration = description.properties.find((p) => p.name === 'registration')!;
		const names = (registration.options as Array<{ name: string }>).map((o) => o.name);
		expect(names).toEqual(['Automatic', 'Existing Endpoint']);
		expect(description.credentials?.map((c) => c.name)).toContain('orchestrationWebhookSecretApi');
	});
});
