import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The control endpoints (/sandbox/*) hand out every key, the gateway's private keys included, and
 * reset or script the services. Only local tools may reach them: no browser page of another origin
 * (no CORS for them, a foreign Origin or Sec-Fetch-Site is refused) and no DNS-rebound host name.
 */
export function guardControlEndpoints(app: FastifyInstance): void {
	app.addHook('onRequest', async (request, reply) => {
		if (!isControlPath(request.url)) return;
		const problem = crossOriginProblem(request);
		if (problem) return reply.code(403).send({ error: { code: 'forbidden', message: `control endpoints refuse ${problem}` } });
	});
}

export function isControlPath(url: string): boolean {
	return url === '/sandbox' || url.startsWith('/sandbox/') || url.startsWith('/sandbox?');
}

/** Why a request to a control endpoint looks like it comes from a web page, or undefined. */
function crossOriginProblem(request: FastifyRequest): string | undefined {
	const host = request.headers.host ?? '';
	if (!isLocalHost(host)) return `the host name ${JSON.stringify(host)} (use an IP address or localhost)`;
	const site = request.headers['sec-fetch-site'];
	if (site === 'cross-site' || site === 'same-site') return `requests from other sites (Sec-Fetch-Site: ${site})`;
	const origin = request.headers.origin;
	if (origin !== undefined && origin !== `http://${host}`) return `cross-origin requests (Origin: ${origin})`;
	return undefined;
}

/** An IP literal or localhost: a web page cannot make a browser send such a Host for its own site. */
function isLocalHost(hostHeader: string): boolean {
	const name = hostHeader.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
	return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost');
}
