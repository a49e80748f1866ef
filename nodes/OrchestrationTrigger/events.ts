/**
 * The event filter. Spec 6 lists eleven kinds; the live service also sends `order.superseded` and
 * `order.recovery_required` (public-notes), and may add more: "all events" lets any kind through.
 */
import { ORDER_EVENTS } from '../shared/orchestration/enums';

/** The value of "All Events" in the selection. */
export const ALL_EVENTS = '*';

/** Newer kinds of the live service (public-notes, "Newer event kinds"). */
export const NEWER_EVENTS = ['order.superseded', 'order.recovery_required'] as const;

export const SELECTABLE_EVENTS: readonly string[] = [...ORDER_EVENTS, ...NEWER_EVENTS];

export interface EventSelection {
	all: boolean;
	accepts(event: string): boolean;
}

const everyEvent: EventSelection = { all: true, accepts: () => true };

/**
 * Empty, "All Events", or every kind of spec 6 (the first default) -> every kind, unknown ones
 * included. Anything but a list of strings -> undefined: the filter fails closed.
 */
export function eventSelectionOf(value: unknown): EventSelection | undefined {
	if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
	const kinds = new Set<string>(value as string[]);
	if (kinds.size === 0 || kinds.has(ALL_EVENTS) || ORDER_EVENTS.every((e) => kinds.has(e)))
		return everyEvent;
	return { all: false, accepts: (event) => kinds.has(event) };
}
