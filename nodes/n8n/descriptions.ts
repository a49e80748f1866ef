/**
 * Builders of parameter declarations both action nodes use, so a dropdown or an options collection
 * is written one way. n8n's lint cannot look inside a builder: test/unit/n8n/descriptions.test.ts
 * checks what it would (defaults among the values, rows and options sorted by name).
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** One row of a dropdown: the label shown, the value stored, and an optional help line. */
export type Choice = [name: string, value: string, description?: string];

/** What a dropdown needs besides its rows; the default is the first row's value unless given. */
export type DropdownField = Omit<INodeProperties, 'type' | 'options' | 'default'> & {
	default?: string;
};

/** A single-choice parameter (`type: 'options'`) from its rows. */
export function dropdown(choices: Choice[], field: DropdownField): INodeProperties {
	const options: INodePropertyOptions[] = choices.map(([name, value, description]) =>
		description === undefined ? { name, value } : { name, value, description },
	);
	return { default: choices[0][1], ...field, type: 'options', options };
}

/** The "Options" collection of an operation, its options sorted by display name (n8n's convention). */
export function optionsCollection(
	displayOptions: IDisplayOptions,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
