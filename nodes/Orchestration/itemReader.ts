/**
 * One item's parameters, read once through one typed reader with the item index inside it. Every
 * rule is the protocol core's; a failure becomes `Invalid "<field>" in item N: ...` before any
 * request leaves (nodes/n8n/nodeErrors.ts).
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { inField } from '../shared/errors';
import { normalizeAssetInput } from '../shared/orchestration/enums';
import { explicitIdempotencyKey } from '../shared/orchestration/idempotency';
import {
	amountInputText,
	assertAmountText,
	integerInput,
	pathSegment,
	textInput,
	type AmountFormat,
} from '../shared/orchestration/inputs';
import type { AmountInput } from '../shared/orchestration/quotePlan';
import { fieldError, planned, type FieldNaming, type ItemError } from '../n8n/nodeErrors';
import { DEFAULT_CONCURRENCY } from './parameters';

export class ItemReader {
	private optionsRead?: IDataObject;

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	/** Runs a rule of the core's plan; its error becomes n8n's, naming the field and this item. */
	plan<T>(rule: () => T, naming?: FieldNaming): T {
		return planned(this.ctx, this.itemIndex, rule, naming);
	}

	/** Runs a rule about one input; its error names `field` (rules such as textInput do not know it). */
	checkedField<T>(field: string, rule: () => T): T {
		return this.plan(() => inField(field, rule));
	}

	/** `Invalid "<field>" in item N: <problem>`, for a rule the core cannot state. */
	fail(field: string, problem: string): ItemError {
		return fieldError(this.ctx.getNode(), this.itemIndex, { field, problem });
	}

	/** A parameter as stored (after expressions), not checked; `fallback` when unset. */
	unchecked(name: string, fallback: unknown = ''): unknown {
		return this.ctx.getNodeParameter(name, this.itemIndex, fallback) as unknown;
	}

	/** The operation's "Options" collection (empty when the operation has none). */
	get options(): IDataObject {
		this.optionsRead ??= ((this.unchecked('options', {}) as IDataObject | undefined) ?? {});
		return this.optionsRead;
	}

	/** A text parameter, trimmed; '' when unset; objects, arrays and booleans are refused. */
	textParameter(name: string): string {
		const value = this.unchecked(name);
		return this.checkedField(name, () => textInput(value));
	}

	/** A text parameter that goes into the URL path: encoded, dot segments refused. */
	pathSegment(name: string): string {
		const value = this.textParameter(name);
		return this.checkedField(name, () => pathSegment(value));
	}

	/** A decimal text parameter (e.g. USD): a JS number only when its text is exact; '' when unset. */
	decimal(name: string): string {
		const value = this.unchecked(name);
		return this.checkedField(name, () => amountInputText(value, 'decimal'));
	}

	/** An integer parameter; fractions, exponents and text are field errors; undefined when unset. */
	integer(name: string): number | undefined {
		const value = this.unchecked(name);
		return this.checkedField(name, () => integerInput(value));
	}

	/** An asset parameter with the legacy TON alias resolved (§2.1). */
	asset(name: string): string {
		const value = this.textParameter(name);
		return value === '' ? value : normalizeAssetInput(value);
	}

	/** A text member of `from` (the options by default), trimmed; undefined when unset or empty. */
	optionText(name: string, from: IDataObject = this.options, field = name): string | undefined {
		const s = this.checkedField(field, () => textInput(from[name]));
		return s === '' ? undefined : s;
	}

	/** An integer member of `from` (the options by default); undefined when unset. */
	optionInteger(name: string, from: IDataObject = this.options, field = name): number | undefined {
		return this.checkedField(field, () => integerInput(from[name]));
	}

	/** "Amount Format" and an amount parameter, exact (a JS number only when it is exact), syntax checked. */
	amount(field = 'amount'): AmountInput {
		const format: AmountFormat = this.unchecked('amountFormat', 'smallestUnit') === 'decimal' ? 'decimal' : 'smallestUnit';
		const raw = this.unchecked(field);
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

	/** The idempotency key the user set (1..255 printable ASCII, checked once), or undefined. */
	idempotencyKey(): string | undefined {
		return this.plan(() => explicitIdempotencyKey(this.options.idempotencyKey));
	}

	/** The browser verification header (§5: cf-turnstile-response), or undefined when no token is set. */
	turnstileHeaders(): Record<string, string> | undefined {
		const token = this.optionText('turnstileToken');
		return token ? { 'cf-turnstile-response': token } : undefined;
	}

	/** The array member of a list answer, cut to "Limit" unless "Return All". */
	listOf(body: IDataObject | undefined, member: string): IDataObject[] {
		const list = body?.[member];
		if (!Array.isArray(list)) throw new NodeOperationError(this.ctx.getNode(), `The answer has no "${member}" list`, { itemIndex: this.itemIndex });
		return this.limited(list as IDataObject[]);
	}

	/** `list` cut to "Limit" unless "Return All". */
	limited(list: IDataObject[]): IDataObject[] {
		if (this.unchecked('returnAll', false)) return list;
		const limit = Math.max(1, Number(this.unchecked('limit', 50)) || 50);
		return list.slice(0, limit);
	}
}

/** Both sides of a quote or estimate and its modes (§4.1); fixed delivery exists only with exact_in. */
export function readQuoteRoute(read: ItemReader): Record<string, unknown> {
	const amountMode = read.textParameter('amountMode') || 'exact_in';
	return {
		sourceChain: read.textParameter('sourceChain'),
		sourceAsset: read.asset('sourceAsset'),
		destinationChain: read.textParameter('destinationChain'),
		destinationAsset: read.asset('destinationAsset'),
		amountMode,
		deliveryMode: amountMode === 'exact_in' ? read.textParameter('deliveryMode') || undefined : undefined,
	};
}

/** Concurrency from the first item's options (a node-wide setting), default 5, at most 50. */
export function concurrencyOf(ctx: IExecuteFunctions): number {
	if (ctx.getInputData().length === 0) return DEFAULT_CONCURRENCY;
	const raw = (ctx.getNodeParameter('options.concurrency', 0, DEFAULT_CONCURRENCY) as number) ?? DEFAULT_CONCURRENCY;
	const n = Math.floor(Number(raw));
	return Number.isFinite(n) && n >= 1 ? Math.min(n, 50) : DEFAULT_CONCURRENCY;
}
