/**
 * The downstream side effect of the fault workflow: a ledger in this process that appends one line
 * per request and updates the payout's row (ledger.ts, as example 3 does), committed when it
 * answers. A request whose connection is gone before the answer (the n8n process that sent it died)
 * is not committed: an execution killed there crashed before its effect, and only a Retry can run it.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Effect } from './accounting';
import { Ledger, type LedgerEvent } from './ledger';

export class Recorder {
	/** Every effect, in arrival order, with the execution that sent it. */
	readonly effects: Effect[] = [];
	/** The payout ledger the effects update (a new one per case: newLedger). */
	ledger = new Ledger();
	/** Requests whose sender was gone before the ledger answered: not committed. */
	uncommitted = 0;
	/** Requests the ledger holds now (an execution in its effect step, past the trigger's run check). */
	open = 0;
	private waiting: Array<() => void> = [];
	private server?: http.Server;
	url = '';

	/** `answerMs`: how long the ledger takes to answer (executions stay running meanwhile, so a fault can hit one). */
	constructor(private readonly answerMs = 0) {}

	async listen(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				this.open++;
				for (const arrived of this.waiting.splice(0)) arrived();
				let effect: Effect | undefined;
				let row: LedgerEvent | undefined;
				try {
					const f = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<Record<keyof Effect | 'quoteId' | 'status', unknown>>;
					if (typeof f.orderId === 'string' && typeof f.event === 'string') {
						effect = { orderId: f.orderId, event: f.event, executionId: String(f.executionId), ...(typeof f.deliveryId === 'string' ? { deliveryId: f.deliveryId } : {}) };
						if (typeof f.status === 'string') row = { event: f.event, orderId: f.orderId, status: f.status, ...(typeof f.quoteId === 'string' ? { quoteId: f.quoteId } : {}) };
					}
				} catch {
					// not an effect
				}
				setTimeout(() => {
					this.open--;
					if (res.destroyed || req.socket.destroyed) {
						this.uncommitted++;
						return;
					}
					if (effect) this.effects.push(effect);
					if (row) this.ledger.event(row);
					res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
				}, this.answerMs);
			});
		});
		await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/effect`;
	}

	/**
	 * Resolves as the next request reaches the ledger: a fault that acts then hits an execution at the
	 * start of its effect step, the whole answer time before the ledger commits.
	 */
	nextArrival(): Promise<void> {
		return new Promise((arrived) => this.waiting.push(arrived));
	}

	/** A ledger of its own for the next case (its payouts only). */
	newLedger(): Ledger {
		this.ledger = new Ledger();
		return this.ledger;
	}

	close(): Promise<void> {
		return new Promise((r) => {
			if (!this.server) return r();
			this.server.closeAllConnections();
			this.server.close(() => r());
		});
	}
}
