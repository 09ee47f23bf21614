/**
 * Validation and normalisation of what the user types for a query, done before any request goes
 * out (design.md section 4): query ID, NQL parameters and the custom log tag.
 */

export const QUERY_ID_PATTERN = /^#[a-z0-9_]{2,255}$/;
export const MAX_QUERY_ID_LENGTH = 255;
export const MAX_LOG_TAG_LENGTH = 255;

export class QueryInputError extends Error {}

/** Accepts `my_query` or `#my_query`; returns `#my_query` or throws saying what is wrong. */
export function normaliseQueryId(raw: unknown): string {
	const text = typeof raw === 'string' ? raw.trim() : raw === undefined || raw === null ? '' : String(raw).trim();
	if (text === '') {
		throw new QueryInputError('The query ID is empty. Enter the ID of an NQL API query, e.g. #all_devices (Nexthink: Administration > NQL API queries).');
	}
	const queryId = text.startsWith('#') ? text : `#${text}`;
	if (queryId.length > MAX_QUERY_ID_LENGTH) {
		throw new QueryInputError(`The query ID is ${queryId.length} characters long; at most ${MAX_QUERY_ID_LENGTH} are allowed (including the #).`);
	}
	if (queryId.length < 3) {
		throw new QueryInputError(`The query ID "${queryId}" is too short: after the # it needs at least 2 characters.`);
	}
	if (!QUERY_ID_PATTERN.test(queryId)) {
		const bad = [...new Set(queryId.slice(1).replace(/[a-z0-9_]/g, ''))].map((c) => JSON.stringify(c)).join(' ');
		const capitals = /[A-Z]/.test(queryId) ? ' Query IDs are lower case.' : '';
		throw new QueryInputError(
			`The query ID "${queryId}" has characters a query ID cannot have: ${bad}. Use lower-case letters, digits and underscores after the #.${capitals}`,
		);
	}
	return queryId;
}

/**
 * NQL parameters are written `$name` in the query; the API takes the name without `$` and every
 * value as a string. Accepts name/value pairs or a JSON object; returns a plain string map.
 */
export function normaliseQueryParameters(pairs: Array<{ name?: unknown; value?: unknown }>): Record<string, string> {
	const parameters: Record<string, string> = {};
	for (const [index, pair] of pairs.entries()) {
		const name = parameterName(pair.name, `Query parameter ${index + 1}`);
		if (name in parameters) throw new QueryInputError(`The query parameter "${name}" is given twice.`);
		parameters[name] = parameterValue(pair.value, name);
	}
	return parameters;
}

export function parseParametersJson(raw: unknown): Record<string, string> {
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		const parsed = parseJson(raw);
		if (parsed.problem !== undefined) throw new QueryInputError(`The query parameters are not valid JSON: ${parsed.problem}`);
		value = parsed.value;
	}
	if (value === undefined || value === null) return {};
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw new QueryInputError('The query parameters JSON must be an object of names to values, e.g. {"os": "Windows 11"}.');
	}
	return normaliseQueryParameters(Object.entries(value).map(([name, v]) => ({ name, value: v })));
}

export function validateLogTag(raw: unknown): string | undefined {
	const tag = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
	if (tag === '') return undefined;
	if (tag.length > MAX_LOG_TAG_LENGTH) {
		throw new QueryInputError(`The custom log tag is ${tag.length} characters long; Nexthink accepts at most ${MAX_LOG_TAG_LENGTH}.`);
	}
	return tag;
}

function parameterName(raw: unknown, label: string): string {
	const name = (typeof raw === 'string' ? raw : '').trim().replace(/^\$/, '');
	if (name === '') throw new QueryInputError(`${label} has no name. Enter the name used in the query without the $, e.g. os for $os.`);
	if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
		throw new QueryInputError(`The query parameter name "${name}" is not a valid NQL parameter name (letters, digits and underscores).`);
	}
	return name;
}

function parameterValue(raw: unknown, name: string): string {
	if (raw === undefined || raw === null) return '';
	if (typeof raw === 'object') {
		throw new QueryInputError(`The value of query parameter "${name}" is an object or array; NQL parameters take single values.`);
	}
	return String(raw);
}

function parseJson(text: string): { value?: unknown; problem?: string } {
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { problem: (error as Error).message };
	}
}
