/**
 * The Orchestration node's reads on top of the one ItemReader (nodes/n8n/items.ts): amounts,
 * assets, the idempotency key, the additional body fields, the browser verification header and
 * both sides of a route. Every rule is the protocol core's; the router constructs the reader, the
 * operations only use it.
 */
import type { IDataObject } from 'n8n-workflow';
import { ItemReader } from '../n8n/items';
import { normalizeAssetInput } from '../shared/orchestration/enums';
import { amountInputText, assertAmountText, type AmountFormat } from '../shared/orchestration/amounts';
import type { AmountInput } from '../shared/orchestration/quotePlan';
import { EXPIRY_MARGIN_DEFAULT_SECONDS, EXPIRY_MARGIN_MAX_SECONDS } from '../shared/orchestration/schemas';

export class OrchestrationReader extends ItemReader {
	/** A decimal text parameter (e.g. USD): a JS number only when its text is exact; '' when unset. */
	decimal(name: string): string {
		const value = this.parameter(name);
		return this.checkedField(name, () => amountInputText(value, 'decimal'));
	}

	/** An asset parameter (a dropdown, or a picker's value from node version 3) with the legacy TON alias resolved (§2.1). */
	asset(name: string): string {
		const raw = this.parameter(name);
		const picked = raw !== null && typeof raw === 'object' && '__rl' in raw ? (raw as { value?: unknown }).value : raw;
		const value = this.textValue(name, picked);
		return value === '' ? value : normalizeAssetInput(value);
	}

	/** "Amount Format" and an amount parameter, exact (a JS number only when it is exact), syntax checked. */
	amount(field = 'amount'): AmountInput {
		const format: AmountFormat = this.parameter('amountFormat', 'smallestUnit') === 'decimal' ? 'decimal' : 'smallestUnit';
		const raw = this.parameter(field);
		const value = this.checkedField(field, () => {
			const exact = amountInputText(raw, format);
			assertAmountText(exact, format);
			return exact;
		});
		return { value, format };
	}

	/** The "Additional Body Fields" JSON of the options: an object, or nothing. */
	additionalFields(field = 'additionalFields'): IDataObject {
		const raw = this.options[field];
		if (raw === undefined || raw === null || raw === '') return {};
		let value: unknown = raw;
		if (typeof raw === 'string') {
			try {
				value = JSON.parse(raw);
			} catch {
				throw this.fail(field, 'is not valid JSON');
			}
		}
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			throw this.fail(field, 'must be a JSON object, e.g. {"zeroconfEnabled": true}');
		}
		return value as IDataObject;
	}

	/**
	 * The idempotency key the user set, as text and untrimmed (it must stay the key earlier runs
	 * sent); undefined when unset. The plan checks it (explicitIdempotencyKey).
	 */
	idempotencyKey(): string | undefined {
		const raw = this.options.idempotencyKey;
		if (raw === undefined || raw === null || raw === '') return undefined;
		return typeof raw === 'string' ? raw : this.textValue('idempotencyKey', raw);
	}

	/** A fixedCollection option of `{affiliateId, feeBps?}` rows (standing addresses); each member checked as text or integer. */
	affiliateEntries(option: string): Array<{ affiliateId: string; feeBps?: number }> {
		const rows = ((this.options[option] as IDataObject | undefined)?.affiliate as IDataObject[] | undefined) ?? [];
		return rows.map((row, n) => {
			const affiliateId = this.optionText('affiliateId', row, `${option}[${n}].affiliateId`) ?? '';
			const feeBps = this.optionInteger('feeBps', row, `${option}[${n}].feeBps`);
			return feeBps === undefined ? { affiliateId } : { affiliateId, feeBps };
		});
	}

	/** "Expiry Margin (Seconds)" of the options: a whole number 0..EXPIRY_MARGIN_MAX_SECONDS (a quote is firm for 2 minutes). */
	expiryMargin(): number {
		const margin = this.optionInteger('expiryMarginSeconds') ?? EXPIRY_MARGIN_DEFAULT_SECONDS;
		if (margin < 0 || margin > EXPIRY_MARGIN_MAX_SECONDS) {
			throw this.fail('expiryMarginSeconds', `must be 0 to ${EXPIRY_MARGIN_MAX_SECONDS} seconds (a quote is firm for 2 minutes), got ${margin}`);
		}
		return margin;
	}

	/** The browser verification header (§5: cf-turnstile-response), or undefined when no token is set. */
	turnstileHeaders(): Record<string, string> | undefined {
		const token = this.optionText('turnstileToken');
		return token ? { 'cf-turnstile-response': token } : undefined;
	}

	/** Both sides of a quote or estimate and its modes (§4.1); fixed delivery exists only with exact_in. */
	quoteRoute(): Record<string, unknown> {
		const amountMode = this.textParameter('amountMode') || 'exact_in';
		return {
			sourceChain: this.textParameter('sourceChain'),
			sourceAsset: this.asset('sourceAsset'),
			destinationChain: this.textParameter('destinationChain'),
			destinationAsset: this.asset('destinationAsset'),
			amountMode,
			deliveryMode: amountMode === 'exact_in' ? this.textParameter('deliveryMode') || undefined : undefined,
		};
	}
}
