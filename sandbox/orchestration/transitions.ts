import type { PublicStatus } from './spec';

/**
 * The live service's order state machine (public-notes "Other partner operations"; spec §3 shows
 * no transitions). `unfulfilled` is a target from processing and confirming ("newer docs") and is
 * not terminal: an unconfirmed or replaced deposit can still resume after a late deposit. The docs
 * do not list the edges out of it; the sandbox resumes to `confirming` (a late deposit seen, waiting
 * for its confirmations) or `processing`. Completed, failed and refunded have no way out. The
 * sandbox moves orders only along these edges.
 */
export const TRANSITIONS: Readonly<Record<PublicStatus, readonly PublicStatus[]>> = {
	processing: ['confirming', 'bridging', 'swapping', 'awaiting_approval', 'delivering', 'completed', 'failed', 'refunded', 'unfulfilled'],
	confirming: ['bridging', 'swapping', 'delivering', 'completed', 'failed', 'refunded', 'unfulfilled'],
	bridging: ['swapping', 'delivering', 'completed', 'failed', 'refunded'],
	swapping: ['awaiting_approval', 'bridging', 'delivering', 'completed', 'failed', 'refunded'],
	awaiting_approval: ['processing', 'confirming', 'swapping', 'refunding', 'failed', 'refunded'],
	refunding: ['refunded', 'failed'],
	delivering: ['confirming', 'completed', 'failed', 'refunded'],
	completed: [],
	failed: [],
	unfulfilled: ['confirming', 'processing'],
	refunded: [],
};

/** Terminal statuses: no edge leads out of them (completed, failed, refunded; never unfulfilled). */
export function isTerminal(status: PublicStatus): boolean {
	return TRANSITIONS[status].length === 0;
}

/** Whether an order may move from `from` to `to` in one step. */
export function canMove(from: PublicStatus, to: PublicStatus): boolean {
	return TRANSITIONS[from].includes(to);
}
