import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

declare module 'fastify' {
	interface FastifyContextConfig {
		/** Set on every route registered under /sandbox, whatever URL reached it. */
		sandboxControl?: boolean;
	}
}

/**
 * The control endpoints (/sandbox/*) hand out every key, the gateway's private keys included, sign
 * and send deliveries, and reset or script the services. Only local tools may reach them: no browser
 * page of another origin (no CORS for them, a foreign Origin or Sec-Fetch-Site is refused) and no
 * DNS-rebound host name. Call before any route is registered: each /sandbox route carries the guard
 * as its own onRequest hook, so no spelling of its URL reaches the handler unguarded.
 */
export function guardControlEndpoints(app: FastifyInstance): void {
	app.addHook('onRoute', (route) => {
		if (!isControlPath(route.url ?? route.path)) return;
		route.config = { ...route.config, sandboxControl: true };
		const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
		route.onRequest = [refuseCrossOrigin, ...own] as typeof route.onRequest;
	});
	// First of the app's hooks; also takes paths no route takes (404s, preflights) that read as a control path.
	app.addHook('onRequest', async (request, reply) => {
		if (isControlRequest(request)) return refuse(request, reply);
	});
}

const refuseCrossOrigin: onRequestAsyncHookHandler = async (request, reply) => refuse(request, reply);

function refuse(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
	const problem = crossOriginProblem(request);
	if (problem) return reply.code(403).send({ error: { code: 'forbidden', message: `control endpoints refuse ${problem}` } });
	return undefined;
}

function isControlRoute(request: FastifyRequest): boolean {
	return request.routeOptions.config?.sandboxControl === true;
}

/** A control request: the router took it to a /sandbox route, or its path reads as one however it is spelled. */
export function isControlRequest(request: FastifyRequest): boolean {
	return isControlRoute(request) || isControlPath(request.url);
}

export function isControlPath(url: string): boolean {
	const path = normalisedPath(url);
	return path === '/sandbox' || path.startsWith('/sandbox/');
}

/**
 * The path as any router could read it, judged on the wide side: the absolute-form target's authority
 * dropped, percent-decoded until stable (double encoding), `;` parameters, dot and empty segments and
 * a trailing slash removed, backslashes as slashes, compatibility forms folded, lower case.
 */
export function normalisedPath(url: string): string {
	let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
	path = path.split(/[?#]/, 1)[0];
	for (let i = 0; i < 10; i++) {
		const next = percentDecoded(path);
		if (next === path) break;
		path = next;
	}
	const segments: string[] = [];
	for (const raw of path.split(/[?#]/, 1)[0].replace(/\\/g, '/').split('/')) {
		const segment = raw.split(';', 1)[0].normalize('NFKC').toLowerCase().trim();
		if (segment === '' || segment === '.') continue;
		if (segment === '..') segments.pop();
		else segments.push(segment);
	}
	return `/${segments.join('/')}`;
}

/** Decodes every %XX run as UTF-8; a malformed escape stays as it is (never throws). */
function percentDecoded(text: string): string {
	return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
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
