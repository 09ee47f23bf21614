/**
 * Options several nodes show with the same name, type and meaning, each with its own default and
 * description: Request Timeout (checked by requestTimeout.ts) and Allow Writes When Used as a Tool
 * (read with toolMode.ts). Saved values live under the option's `name`, so it never changes.
 */

/**
 * An operation's collection, by n8n's names: `options` (what changes how it runs) or `filters` (what
 * Get Many returns). One of each kind at most per operation, the same name in every operation.
 */
export function collectionOf(name: 'options' | 'filters', displayOptions: IDisplayOptions, options: INodeProperties[]): INodeProperties {
	const [displayName, placeholder] = name === 'options' ? ['Options', 'Add Option'] : ['Filters', 'Add Filter'];
	return { displayName, name, type: 'collection', placeholder, default: {}, displayOptions, options };
}
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

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
