/**
 * Server and client keys (orchestration-service.md §5) told apart by their prefix: the one key check
 * of the credentials and the node. Pure and tiny, so the credentials bundle nothing else.
 */

/** Key prefixes (spec 5): server keys `fn_`, client keys `fnp_`. */
export const SERVER_KEY_PREFIX = 'fn_';
export const CLIENT_KEY_PREFIX = 'fnp_';
export type KeyType = 'server' | 'client';
export const KEY_PREFIXES: Record<KeyType, string> = {
	server: SERVER_KEY_PREFIX,
	client: CLIENT_KEY_PREFIX,
};

/** Key type from its prefix (spec 5); undefined for anything else. */
export function keyTypeOf(apiKey: string): KeyType | undefined {
	if (apiKey.startsWith(CLIENT_KEY_PREFIX)) return 'client';
	if (apiKey.startsWith(SERVER_KEY_PREFIX)) return 'server';
	return undefined;
}
