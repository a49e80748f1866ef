/**
 * JSON Schemas of node outputs, inferred from sample outputs (the shape n8n's own `__schema__`
 * files have: type, properties, items), and the check of an output against one. An output may
 * omit a declared property (optional fields); it may not carry an undeclared one or another type.
 */
export interface JsonSchema {
	type: string | string[];
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
}

function typeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value;
}

/** The schema every one of `values` satisfies: types joined, object properties and array items merged. */
export function inferSchema(values: unknown[]): JsonSchema {
	const types = [...new Set(values.map(typeOf))];
	if (types.includes('integer') && types.includes('number')) types.splice(types.indexOf('integer'), 1);
	const schema: JsonSchema = { type: types.length === 1 ? types[0] : types.sort() };
	const objects = values.filter((v) => typeOf(v) === 'object') as Array<Record<string, unknown>>;
	if (objects.length > 0) {
		const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
		schema.properties = Object.fromEntries(keys.map((k) => [k, inferSchema(objects.filter((o) => k in o).map((o) => o[k]))]));
	}
	const elements = (values.filter(Array.isArray) as unknown[][]).flat();
	if (elements.length > 0) schema.items = inferSchema(elements);
	return schema;
}

function allows(schema: JsonSchema, type: string): boolean {
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** Where `value` leaves `schema` (`at: ...` lines); empty when it conforms. */
export function schemaProblems(schema: JsonSchema, value: unknown, at = '$'): string[] {
	const type = typeOf(value);
	if (!allows(schema, type)) return [`${at}: ${type}, the schema says ${JSON.stringify(schema.type)}`];
	if (type === 'object' && schema.properties) {
		return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
			schema.properties![k] ? schemaProblems(schema.properties![k], v, `${at}.${k}`) : [`${at}.${k}: not in the schema`],
		);
	}
	if (type === 'array' && schema.items) return (value as unknown[]).flatMap((v, i) => schemaProblems(schema.items!, v, `${at}[${i}]`));
	return [];
}
