/** Panel fields several Actions resources declare alike: the operation picker, a write's Options, name/value lists. */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { actionWritesDescription, allowWritesOption, collectionOf, requestTimeoutOption } from '../../shared/optionFields';

/** A resource's operation picker. */
export function operationPicker(resource: string, fallback: string, options: INodePropertyOptions[]): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: fallback,
	};
}

/** A write's Options, sorted by name: Allow Writes When Used as a Tool (may an agent really `what`), `others`, Request Timeout. */
export function writeOptions(displayOptions: IDisplayOptions, what: string, timeout: [seconds: number, description: string], others: INodeProperties[] = []): INodeProperties {
	const options = [allowWritesOption(actionWritesDescription(what)), ...others, requestTimeoutOption(...timeout)];
	return collectionOf('options', displayOptions, options.sort((a, b) => a.displayName.localeCompare(b.displayName)));
}

/** A list of name/value pairs: each `entry` holds the `key` field and a Value. */
export function pairsCollection(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'placeholder' | 'description' | 'displayOptions'>,
	entry: { displayName: string; name: string },
	key: INodeProperties,
): INodeProperties {
	return {
		...field,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [{ ...entry, values: [key, { displayName: 'Value', name: 'value', type: 'string', default: '' }] }],
	};
}
