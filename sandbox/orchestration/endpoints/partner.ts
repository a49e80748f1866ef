import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { WebhookCreateRequestSchema } from '../../../nodes/shared/orchestration/schemas';
import type { SeedAffiliate } from '../../config';
import { authenticate } from '../auth';
import type { Caller, OrchestrationContext } from '../context';
import { forbidden, parseInput } from '../errors';
import { idempotent } from '../idempotency';

const SEEDED_AT = '2025-01-01T00:00:00.000Z';

/** spec §2.7 affiliate profile. */
function affiliateProfile(a: SeedAffiliate): Record<string, unknown> {
	return { ...a, createdAt: SEEDED_AT, updatedAt: SEEDED_AT, disabledAt: a.enabled ? null : SEEDED_AT };
}

export function registerPartnerEndpoints(app: FastifyInstance, ctx: OrchestrationContext): void {
	// spec §4.5, §5: server keys see every affiliate; a client key only its pinned one, with affiliates:read
	app.get('/v1/affiliates', async (request) => {
		const caller = authenticate(ctx, request, { clientScope: 'affiliates:read' }) as Caller;
		const all = caller.partner.affiliates;
		if (caller.type === 'server') return { affiliates: all.map(affiliateProfile) };
		const pinned = caller.key.affiliateId;
		if (!pinned) throw forbidden('forbidden', 'affiliate reporting needs a client key pinned to an affiliate');
		return { affiliates: all.filter((a) => a.affiliateId === pinned).map(affiliateProfile) };
	});

	// spec §2.9, §6: the secret is shown once, at creation; webhook management needs a server key
	app.post('/v1/webhooks', async (request, reply) => {
		const caller = authenticate(ctx, request, {}) as Caller;
		return idempotent(ctx, request, reply, 'webhooks', caller.partner.partnerId, () => {
			const { url } = parseInput(WebhookCreateRequestSchema, request.body);
			const record = {
				webhookId: ctx.state.nextId('wh'),
				partnerId: caller.partner.partnerId,
				url,
				secret: `whsec_${randomBytes(32).toString('hex')}`,
				createdAt: new Date(ctx.clock.now()).toISOString(),
			};
			ctx.state.webhooks.push(record);
			return { status: 201, body: { webhookId: record.webhookId, url, secret: record.secret, createdAt: record.createdAt } };
		});
	});
}
