/**
 * Fields several nodes show with the same name, type and meaning, each with its own default and
 * description: options, the collections that hold them, a resource locator of a stored object, a
 * list of name/value pairs. Saved values live under `name`: it never changes.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** n8n's Options collection, without its options: each operation lists its own. */
export const OPTIONS_COLLECTION: INodeProperties = { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {} };

/** An operation's collection by n8n's names: `options`, or `filters` (Get Many); one of each at most. */
export function collectionOf(name: 'options' | 'filters', displayOptions: IDisplayOptions, options: INodeProperties[]): INodeProperties {
	const [displayName, placeholder] = name === 'options' ? ['Options', 'Add Option'] : ['Filters', 'Add Filter'];
	return { displayName, name, type: 'collection', placeholder, default: {}, displayOptions, options };
}

export function requestTimeoutOption(defaultSeconds: number, description: string): INodeProperties {
	return {
		displayName: 'Request Timeout (Seconds)',
		name: 'requestTimeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: defaultSeconds,
		description,
	};
}

export const ALLOW_WRITES_LABEL = 'Allow Writes When Used as a Tool';

export function allowWritesOption(description: string): INodeProperties {
	return {
		displayName: ALLOW_WRITES_LABEL,
		name: 'allowWritesAsTool',
		type: 'boolean',
		default: false,
		description,
	};
}

/** What Allow Writes says for an Actions operation: whether an agent may really `what` ("run the remote action"). */
export function actionWritesDescription(what: string): string {
	return `Whether an AI agent running this node as a tool may really ${what}. Off: as a tool, the node only checks the input and reports what it would send.`;
}

/** A resource locator of a stored object: picked from a searchable list ("From List") or typed ("By …"). */
export function listOrIdLocator(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'displayOptions'> & { mode: 'list' | 'id' },
	searchListMethod: string,
	byId: { displayName: string; placeholder: string; hint?: string },
	listHint?: string,
): INodeProperties {
	const { mode, ...shown } = field;
	return {
		...shown,
		type: 'resourceLocator',
		default: { mode, value: '' },
		required: true,
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', hint: listHint, typeOptions: { searchListMethod, searchable: true } },
			{ name: 'id', type: 'string', ...byId },
		],
	};
}

/** A list of name/value pairs: each `entry` (by default a Parameter) holds the `key` field and a Value. */
export function pairsCollection(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'placeholder' | 'description' | 'displayOptions'>,
	key: INodeProperties,
	entry = { displayName: 'Parameter', name: 'parameter' },
): INodeProperties {
	return {
		...field,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [{ ...entry, values: [key, { displayName: 'Value', name: 'value', type: 'string', default: '' }] }],
	};
}

/** A notice on the panel: n8n shows its `displayName` as the text. */
export function notice(name: string, text: string, displayOptions?: IDisplayOptions): INodeProperties {
	return { displayName: text, name, type: 'notice', default: '', ...(displayOptions && { displayOptions }) };
}
