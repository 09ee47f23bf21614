/** Panel fields several Actions resources declare alike: the operation picker, Request Timeout, a write's Options. */
import type { IDataObject, IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { actionWritesDescription, allowWritesOption, collectionOf, listOrIdLocator, requestTimeoutOption } from '../../shared/optionFields';
import { requestTimeoutMs } from '../../shared/parameterValues';

/** Request Timeout when not set, for every Actions request and the editor's lists (docs/decisions.md, row "Request Timeout"). */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;

/** Request Timeout of an operation's Options, checked before any request. */
export function readTimeoutMs(options: IDataObject): number {
	return requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_REQUEST_TIMEOUT_SECONDS);
}

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

/** The object a resource's Run and Get act on (its `resource` parameter): picked from its list, or by NQL ID. */
export function nqlIdLocator(resource: string, displayName: string, searchListMethod: string, texts: { description: string; placeholder: string; hint: string }): INodeProperties {
	const displayOptions = { show: { resource: [resource], operation: ['run', 'get'] } };
	const byId = { displayName: 'By NQL ID', placeholder: texts.placeholder, hint: texts.hint };
	return listOrIdLocator({ displayName, name: resource, mode: 'list', displayOptions, description: texts.description }, searchListMethod, byId);
}

/** A write's Options, sorted by name: Allow Writes When Used as a Tool (may an agent really `what`), `others`, Request Timeout. */
export function writeOptions(displayOptions: IDisplayOptions, what: string, timeoutDescription: string, others: INodeProperties[] = []): INodeProperties {
	const options = [allowWritesOption(actionWritesDescription(what)), ...others, requestTimeoutOption(DEFAULT_REQUEST_TIMEOUT_SECONDS, timeoutDescription)];
	return collectionOf('options', displayOptions, options.sort((a, b) => a.displayName.localeCompare(b.displayName)));
}
