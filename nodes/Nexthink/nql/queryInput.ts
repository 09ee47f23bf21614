/**
 * A stored query's input, the same in every node that shows it: the panel fields (Query ID, its
 * parameters as pairs or JSON, Custom Log Tag) and their checks, run before any request.
 */
import type { INodeProperties } from 'n8n-workflow';

import { readChoice, readText } from '../shared/parameterValues';
import { InputError } from '../shared/inputError';
import { parseJson } from '../shared/jsonValues';
import { hasOwnKey, setOwn } from '../shared/ownKeys';
import { pairsCollection } from '../shared/optionFields';
import { PARAMETER_NAME_PATTERN, QUERY_ID_PATTERN, withHash } from '../shared/nqlIds';

export const MAX_QUERY_ID_LENGTH = 255;
export const MAX_LOG_TAG_LENGTH = 255;

/** A query as it is sent: its ID (with #) and the values of its $parameters. */
export interface QuerySettings {
	queryId: string;
	parameters: Record<string, string>;
}

export const QUERY_ID_DESCRIPTION =
	'ID of a stored NQL API query (Nexthink: Administration > NQL API queries). The leading # may be left out. Lower-case letters, digits and underscores.';

/**
 * Query ID as free text (the Nexthink Trigger's). The Export node shows it as a resource locator
 * with its Query Catalogue as the list (export/description.ts); both are read the same way.
 */
export const queryIdField: INodeProperties = {
	displayName: 'Query ID',
	name: 'queryId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '#all_devices',
	description: QUERY_ID_DESCRIPTION,
};

/** The query's parameters, as pairs or JSON, shown after Query ID. */
export const queryParameterFields: INodeProperties[] = [
	{
		displayName: 'Specify Query Parameters',
		name: 'parametersInput',
		type: 'options',
		default: 'pairs',
		options: [
			{ name: 'Using Fields Below', value: 'pairs' },
			{ name: 'Using JSON', value: 'json' },
		],
		description: 'How to give the values of the query\'s $parameters',
	},
	pairsCollection(
		{
			displayName: 'Query Parameters',
			name: 'queryParameters',
			placeholder: 'Add Parameter',
			description: 'Values for the $parameters of the query. Every value is sent as text; Nexthink infers its type.',
			displayOptions: { show: { parametersInput: ['pairs'] } },
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'os',
			description: 'Parameter name as written in the query, without the $',
		},
	),
	{
		displayName: 'Query Parameters (JSON)',
		name: 'queryParametersJson',
		type: 'json',
		// required: chosen through Parameters Input = JSON, it is then where the parameters come from
		// (n8n's open-ended-node-fields rule warns on optional top-level JSON fields)
		required: true,
		default: '{}',
		description: 'An object of parameter names (without $) to values, e.g. {"os": "Windows 11"}',
		displayOptions: { show: { parametersInput: ['json'] } },
	},
];

/** The Custom Log Tag option, sent with the request (queryInput.ts checks it and makes the header value). */
export const logTagOption: INodeProperties = {
	displayName: 'Custom Log Tag',
	name: 'logTag',
	type: 'string',
	default: '',
	description:
		'Free text (at most 255 characters, no line breaks or tabs, sent as UTF-8) stored with the request in Nexthink\'s platform logs, to find this workflow\'s calls later',
};

/** Accepts `my_query` or `#my_query`; returns `#my_query`. Messages quote the ID as typed, without an added `#`. */
export function normaliseQueryId(raw: unknown): string {
	const text = readText(raw, 'Query ID').trim();
	if (text === '') {
		throw new InputError('The query ID is empty. Enter the ID of an NQL API query, e.g. #all_devices (Nexthink: Administration > NQL API queries).');
	}
	const typedHash = text.startsWith('#');
	const queryId = withHash(text);
	if (queryId.length > MAX_QUERY_ID_LENGTH) {
		const limit = typedHash ? `${MAX_QUERY_ID_LENGTH} including the #` : `${MAX_QUERY_ID_LENGTH - 1} (${MAX_QUERY_ID_LENGTH} with the # in front)`;
		throw new InputError(`The query ID is ${text.length} characters long; at most ${limit} are allowed.`);
	}
	if (queryId.length < 3) {
		throw new InputError(`The query ID "${text}" is too short: it needs at least 2 characters${typedHash ? ' after the #' : ''}.`);
	}
	if (!QUERY_ID_PATTERN.test(queryId)) {
		const bad = [...new Set(queryId.slice(1).replace(/[a-z0-9_]/g, ''))].map((c) => JSON.stringify(c)).join(' ');
		const capitals = /[A-Z]/.test(queryId) ? ' Query IDs are lower case.' : '';
		throw new InputError(
			`The query ID "${text}" has characters a query ID cannot have: ${bad}. Use lower-case letters, digits and underscores${typedHash ? ' after the #' : ' (the # in front may be left out)'}.${capitals}`,
		);
	}
	return queryId;
}

/** Name/value pairs as the API takes them: names without `$`, every value a string (docs/decisions.md, "NQL parameter names"). */
export function normaliseQueryParameters(pairs: Array<{ name?: unknown; value?: unknown }>): Record<string, string> {
	const parameters: Record<string, string> = {};
	for (const [index, pair] of pairs.entries()) {
		const name = parameterName(pair.name, `Query parameter ${index + 1}`);
		if (hasOwnKey(parameters, name)) throw new InputError(`The query parameter "${name}" is given twice.`);
		setOwn(parameters, name, parameterValue(pair.value, name));
	}
	return parameters;
}

export function parseParametersJson(raw: unknown): Record<string, string> {
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		const parsed = parseJson(raw);
		if (parsed.problem !== undefined) throw new InputError(`The query parameters are not valid JSON: ${parsed.problem}`);
		value = parsed.value;
	}
	if (value === undefined || value === null) return {};
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw new InputError('The query parameters JSON must be an object of names to values, e.g. {"os": "Windows 11"}.');
	}
	return normaliseQueryParameters(Object.entries(value).map(([name, v]) => ({ name, value: v })));
}

/**
 * Reads the query fields through `get` (a node parameter by name, with its
 * fallback), not yet checked but for the choice of "Specify Query Parameters". `parameters`: the
 * name/value pairs, or the JSON text, whichever it shows.
 */
export function readQueryFields(get: (name: string, fallback: unknown) => unknown) {
	const queryId = get('queryId', '');
	const parametersInput = readChoice(get('parametersInput', 'pairs'), 'Specify Query Parameters', ['pairs', 'json'], 'pairs');
	return { queryId, parametersInput, parameters: parametersInput === 'json' ? get('queryParametersJson', '{}') : get('queryParameters.parameter', []) };
}

/** The query ID and parameters as sent; throws `InputError` saying what is wrong. */
export function checkQueryFields(raw: ReturnType<typeof readQueryFields>): QuerySettings {
	return {
		queryId: normaliseQueryId(raw.queryId),
		parameters:
			raw.parametersInput === 'json'
				? parseParametersJson(raw.parameters)
				: normaliseQueryParameters((raw.parameters ?? []) as Array<{ name?: unknown; value?: unknown }>),
	};
}

/** The custom log tag as it will be sent, or undefined for none (docs/decisions.md, "Custom log tag"). */
export function validateLogTag(raw: unknown): string | undefined {
	if (typeof raw === 'object' && raw !== null) {
		throw new InputError(`The custom log tag must be text, got ${Array.isArray(raw) ? 'a list' : 'an object'}.`);
	}
	const tag = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
	if (tag === '') return undefined;
	const characters = [...tag];
	if (characters.length > MAX_LOG_TAG_LENGTH) {
		throw new InputError(`The custom log tag is ${characters.length} characters long; Nexthink accepts at most ${MAX_LOG_TAG_LENGTH}.`);
	}
	const bad = characters.findIndex(cannotBeSent);
	if (bad !== -1) {
		const codePoint = characters[bad].codePointAt(0) ?? 0;
		const code = codePoint.toString(16).toUpperCase().padStart(4, '0');
		const name = codePoint === 0x0a || codePoint === 0x0d ? ', a line break' : codePoint === 0x09 ? ', a tab' : '';
		const what = codePoint >= 0xd800 && codePoint <= 0xdfff ? 'half of a character pair (broken text)' : 'a control character';
		throw new InputError(
			`The custom log tag has ${what} (U+${code}${name}) at character ${bad + 1}; an HTTP header cannot carry it. Remove it.`,
		);
	}
	if (tag.startsWith(' ') || tag.endsWith(' ')) {
		throw new InputError('The custom log tag starts or ends with a space, which HTTP drops from header values. Remove the space.');
	}
	return tag;
}

/** C0 and C1 control characters, DEL, and unpaired UTF-16 surrogates (which have no UTF-8 form). */
function cannotBeSent(character: string): boolean {
	const codePoint = character.codePointAt(0) ?? 0;
	return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f) || (codePoint >= 0xd800 && codePoint <= 0xdfff);
}

/** The tag's UTF-8 bytes, one character per byte: header values are byte strings (an ASCII tag is unchanged). */
export function logTagHeaderValue(tag: string): string {
	let value = '';
	for (const byte of new TextEncoder().encode(tag)) value += String.fromCharCode(byte);
	return value;
}

function parameterName(raw: unknown, label: string): string {
	const name = readText(raw, `${label}'s name`).trim().replace(/^\$/, '');
	if (name === '') throw new InputError(`${label} has no name. Enter the name used in the query without the $, e.g. os for $os.`);
	if (!PARAMETER_NAME_PATTERN.test(name)) {
		throw new InputError(`The query parameter name "${name}" is not a valid NQL parameter name (letters, digits and underscores).`);
	}
	return name;
}

function parameterValue(raw: unknown, name: string): string {
	if (raw === undefined || raw === null) return '';
	if (typeof raw === 'object') {
		throw new InputError(`The value of query parameter "${name}" is an object or array; NQL parameters take single values.`);
	}
	return String(raw);
}
