/**
 * The documented examples of test/fixtures/live-service (see its README): loaded as written, and the
 * routes listing of routes.json as the nodes' own catalogue (the decimals every formatted amount uses).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RoutesCatalogue } from '../../../nodes/shared/orchestration/routesCatalogue';

export type Json = Record<string, unknown>;

export function fixture<T>(name: string): T {
	return JSON.parse(readFileSync(join(__dirname, '../../fixtures/live-service', name), 'utf8')) as T;
}

interface RoutesFixture {
	listing: { body: { assets: Json[] } };
}

/** The nodes' catalogue over the corpus's routes listing. */
export function catalogue(): RoutesCatalogue {
	return new RoutesCatalogue(fixture<RoutesFixture>('routes.json').listing.body.assets);
}

/** Spec 6, computed here with node:crypto: lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`. */
export function signature(secret: string, timestamp: string, rawBody: string): string {
	return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** The `...Formatted` members of an object (the package's formatted amounts), without the suffix. */
export function formattedOf(value: Json): Json {
	const out: Json = {};
	for (const [key, v] of Object.entries(value)) if (key.endsWith('Formatted')) out[key.slice(0, -'Formatted'.length)] = v;
	return out;
}
