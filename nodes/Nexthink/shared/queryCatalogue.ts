/**
 * The query catalogue: the stored NQL queries a node may run, written by the workflow's author, each
 * with what it answers, its $parameters and the columns Simplified tool output keeps (toolOutput.ts).
 * With entries, any other query or parameter is refused before any request with the list (why:
 * docs/decisions.md, "Narrowing what a tool may do, and reporting what it did"). Pure, apart from the
 * parameter's description (type-only import).
 */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { InputError } from './inputError';
import { PARAMETER_NAME_PATTERN, QUERY_ID_PATTERN, withHash } from './nqlIds';

export const CATALOGUE_LABEL = 'Query Catalogue';

export type CatalogueEntry = NonNullable<ReturnType<typeof readCatalogue>>[number];

/** An entry as the fixedCollection holds it (`queryCatalogue.query`). */
type RawCatalogueEntry = Partial<Record<'queryId' | 'description' | 'parameters' | 'columns', unknown>>;

/**
 * Reads and checks the catalogue; `undefined` when it has no entries (then any query may run). An
 * entry: its query ID with its `#`, what it answers, its parameters (a `meaning` may be empty) and the
 * columns Simplified output keeps (none: Simplified leaves out empty values only).
 */
export function readCatalogue(raw: unknown) {
	if (raw === undefined || raw === null || raw === '') return undefined;
	if (!Array.isArray(raw)) throw new InputError(`The ${CATALOGUE_LABEL} must be a list of queries, got ${typeof raw}.`, CATALOGUE_LABEL);
	if (raw.length === 0) return undefined;
	const seen = new Set<string>();
	return raw.map((value, index) => {
		const entry = (typeof value === 'object' && value !== null ? value : {}) as RawCatalogueEntry;
		const where = `${CATALOGUE_LABEL}, query ${index + 1}`;
		const queryId = withHash(text(entry.queryId, `${where}: Query ID`));
		if (!QUERY_ID_PATTERN.test(queryId)) {
			throw new InputError(`${where}: "${queryId.slice(0, 80)}" is not a query ID (lower-case letters, digits and underscores, e.g. #all_devices).`, CATALOGUE_LABEL);
		}
		if (seen.has(queryId)) throw new InputError(`${where}: ${queryId} is listed twice.`, CATALOGUE_LABEL);
		seen.add(queryId);
		return {
			queryId,
			description: text(entry.description, `${where}: What It Answers`),
			parameters: parseParameterLines(text(entry.parameters, `${where}: Parameters`), `${where} (${queryId})`),
			columns: distinctColumnNames(text(entry.columns, `${where}: Simplified Columns`)),
		};
	});
}

/**
 * The query's parameters, one per line: `name: what it means` (or `name` alone; a leading `$` is
 * dropped). Names are NQL parameter names, each once.
 */
export function parseParameterLines(value: string, where: string): Array<{ name: string; meaning: string }> {
	const parameters: Array<{ name: string; meaning: string }> = [];
	for (const line of value.split(/\r?\n/)) {
		if (line.trim() === '') continue;
		const colon = line.indexOf(':');
		const name = (colon === -1 ? line : line.slice(0, colon)).trim().replace(/^\$/, '');
		const meaning = colon === -1 ? '' : line.slice(colon + 1).trim();
		if (!PARAMETER_NAME_PATTERN.test(name)) {
			throw new InputError(`${where}: the parameter "${name.slice(0, 60)}" is not an NQL parameter name. Write one parameter per line as name: what it means.`, CATALOGUE_LABEL);
		}
		if (parameters.some((parameter) => parameter.name === name)) throw new InputError(`${where}: the parameter ${name} is listed twice.`, CATALOGUE_LABEL);
		parameters.push({ name, meaning });
	}
	return parameters;
}

/** Column names separated by commas or line breaks, blanks dropped, each once. */
export function distinctColumnNames(value: string): string[] {
	return [...new Set(value.split(/[,\n]/).map((column) => column.trim()).filter((column) => column !== ''))];
}

/**
 * The catalogue's entry for the query ID as typed (before it is checked: a model may send anything),
 * or an input error listing what may run.
 */
export function catalogueEntryOf(catalogue: readonly CatalogueEntry[], rawQueryId: unknown): CatalogueEntry {
	const typed = typeof rawQueryId === 'string' || typeof rawQueryId === 'number' ? String(rawQueryId).trim() : '';
	const entry = typed === '' ? undefined : catalogue.find((candidate) => candidate.queryId === withHash(typed));
	if (entry !== undefined) return entry;
	const what = typed === '' ? 'No query ID was given' : `The query ID "${typed.slice(0, 80)}" is not in this node's ${CATALOGUE_LABEL}`;
	throw new InputError(`${what}: nothing was sent. The queries it may run: ${describeCatalogue(catalogue)}`, 'Query ID');
}

/** `names`: the parameters the request would send; each must be one of the entry's, and each of the entry's must be given. */
export function checkCatalogueParameters(entry: CatalogueEntry, names: readonly string[]): void {
	const unknown = names.filter((name) => !entry.parameters.some((parameter) => parameter.name === name));
	const missing = entry.parameters.filter((parameter) => !names.includes(parameter.name)).map((parameter) => parameter.name);
	if (unknown.length === 0 && missing.length === 0) return;
	const problems = [unknown.length > 0 ? `it takes no parameter ${unknown.join(', ')}` : '', missing.length > 0 ? `it needs ${missing.join(', ')}` : ''];
	throw new InputError(`${entry.queryId}: ${problems.filter(Boolean).join(' and ')}; nothing was sent. ${describeEntry(entry)}`, 'Query Parameters');
}

/**
 * The Query ID list of the editor ("From List"): each catalogue entry whose query ID is well formed,
 * in the catalogue's order, as `#id — what it answers`, those whose text holds `filter` (without
 * case). Lenient where readCatalogue is strict: an entry being typed is left out, not an error.
 */
export function catalogueListEntries(raw: unknown, filter?: string): Array<{ name: string; value: string }> {
	const needle = (filter ?? '').trim().toLowerCase();
	return (Array.isArray(raw) ? raw : [])
		.map((value) => (typeof value === 'object' && value !== null ? value : {}) as RawCatalogueEntry)
		.filter((entry) => typeof entry.queryId === 'string' && QUERY_ID_PATTERN.test(withHash(entry.queryId)))
		.map((entry) => {
			const queryId = withHash(entry.queryId as string);
			const answers = typeof entry.description === 'string' ? entry.description.trim() : '';
			return { name: answers === '' ? queryId : `${queryId} — ${answers}`, value: queryId };
		})
		.filter((entry, index, all) => all.findIndex((other) => other.value === entry.value) === index)
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle));
}

/** The catalogue as one text for a model or a user: each query, what it answers and its parameters. */
export function describeCatalogue(catalogue: readonly CatalogueEntry[]): string {
	return catalogue.map(describeEntry).join(' ');
}

export function describeEntry(entry: CatalogueEntry): string {
	const answers = entry.description === '' ? '' : ` ${sentence(entry.description)}`;
	const parameters =
		entry.parameters.length === 0
			? ' Parameters: none.'
			: ` Parameters: ${entry.parameters.map((parameter) => (parameter.meaning === '' ? parameter.name : `${parameter.name} (${parameter.meaning})`)).join(', ')}.`;
	return `${entry.queryId}:${answers}${parameters}`;
}

function sentence(value: string): string {
	return /[.!?]$/.test(value) ? value : `${value}.`;
}

function text(value: unknown, label: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw new InputError(`${label} must be text, got ${Array.isArray(value) ? 'a list' : 'an object'}.`, CATALOGUE_LABEL);
}

const catalogueEntryFields: INodePropertyCollection = {
	displayName: 'Query',
	name: 'query',
	values: [
		{
			displayName: 'Query ID',
			name: 'queryId',
			type: 'string',
			default: '',
			placeholder: '#devices_by_os',
			description: 'ID of a stored NQL API query (the leading # may be left out)',
		},
		{
			displayName: 'What It Answers',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: 'Devices whose operating system matches os, with name, UID and Collector UID',
			description: 'What the query returns, in words a model understands: it picks the query by this',
		},
		{
			displayName: 'Parameters',
			name: 'parameters',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: 'os: operating system name, * as wildcard, e.g. Windows 11*',
			description: 'The query\'s $parameters, one per line as name: what it means. Leave empty for a query without parameters.',
		},
		{
			displayName: 'Simplified Columns',
			name: 'columns',
			type: 'string',
			default: '',
			placeholder: 'device.name, device.collector.uid',
			description: 'The columns a tool answer keeps with "Output When Used as a Tool" set to Simplified, separated by commas. Empty: every column, without empty values.',
		},
	],
};

/** The parameter, listed after Query ID by each operation that runs a stored query. */
export const queryCatalogueProperty: INodeProperties = {
	displayName: CATALOGUE_LABEL,
	name: 'queryCatalogue',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	default: {},
	placeholder: 'Add Query',
	description:
		'The stored queries this node may run, e.g. as an AI agent\'s tool. When it lists any, every other query ID (and every parameter a query does not list) is refused before any request, with the list of these queries.',
	options: [catalogueEntryFields],
};
