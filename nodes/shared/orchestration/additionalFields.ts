/**
 * "Additional Body Fields": raw members a user adds to a request for names the node does not know
 * (public-notes: always keep that escape hatch). They may add members, never replace the node's own,
 * and never carry a destination past the node's checks. Pure.
 */
import { ZodEffects, ZodObject, type ZodType } from 'zod';
import { ProtocolError } from '../errors';

/** Member names that can carry where money goes: such a member the operation does not check is refused. */
const ADDRESS_LIKE = /address|recipient|payout|destination|beneficiary|wallet/i;

/** The member names an object schema checks (through refinements), for `mergeAdditionalFields`'s `checked`. */
export function checkedMembers(schema: ZodType): string[] {
	let inner: unknown = schema;
	while (inner instanceof ZodEffects) inner = inner.innerType();
	return inner instanceof ZodObject ? Object.keys(inner.shape as object) : [];
}

/**
 * The request with the "Additional Fields" members added. A member the operation already set from
 * its own, validated parameters (or sets later: `alsoSet`) is refused (it would silently override
 * them); so is an address-like member the operation's schema does not check (`checked`): a raw
 * field must not carry a destination past the node's checks. Others pass through.
 */
export function mergeAdditionalFields(
	body: Record<string, unknown>,
	extra: Record<string, unknown>,
	alsoSet: string[] = [],
	checked: string[] = [],
): Record<string, unknown> {
	const collisions = Object.keys(extra).filter(
		(key) => Object.prototype.hasOwnProperty.call(body, key) || alsoSet.includes(key),
	);
	if (collisions.length > 0) {
		const names = collisions.map((key) => `"${key}"`).join(', ');
		throw new ProtocolError(
			`sets ${names}, which this operation already sets from its own parameter${collisions.length > 1 ? 's' : ''}; ` +
				'change the parameter instead (additional fields may only add members the node does not set)',
			{ reason: 'additional_field_collision' },
		);
	}
	refuseUncheckedAddresses(extra, checked);
	return { ...body, ...extra };
}

/** Refuses an address-like member of `extra`, at any depth, outside the `checked` top-level members. */
export function refuseUncheckedAddresses(
	extra: Record<string, unknown>,
	checked: readonly string[],
): void {
	const found = addressLikePaths(extra, '', 0).filter(
		(path) => !checked.includes(path.split(/[.[]/)[0]),
	);
	if (found.length === 0) return;
	throw new ProtocolError(
		`sets ${found.map((p) => `"${p}"`).join(', ')}, which may say where funds go and which this node cannot check; ` +
			"use the operation's own parameter for a destination, or leave it out",
		{ reason: 'unchecked_address_field' },
	);
}

function addressLikePaths(value: unknown, path: string, depth: number): string[] {
	if (depth > 8 || typeof value !== 'object' || value === null) return [];
	return Object.entries(value).flatMap(([key, v]) => {
		const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
		return [
			...(!Array.isArray(value) && ADDRESS_LIKE.test(key) ? [at] : []),
			...addressLikePaths(v, at, depth + 1),
		];
	});
}
