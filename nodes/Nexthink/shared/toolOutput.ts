/**
 * What an AI agent gets back when it runs a node that outputs rows as a tool (docs/decisions.md, "As
 * an AI agent's tool"): first the fields of each row ("Output When Used as a Tool": Simplified, the
 * query catalogue's Simplified Columns of the query or else every non-empty column; Raw; Selected
 * Fields), so that narrower rows let more of them fit; then rows bounded by count (while the file is
 * read) and by the UTF-8 bytes of their JSON, with a note first saying what was left out. The note and
 * the items that are not rows are always output; outside a tool run rows are never shaped. Pure.
 */
import { numberOf, readChoice } from './parameterValues';
import { InputError } from './inputError';
import { distinctColumnNames } from './queryCatalogue';
import { plural } from './wording';

/** Default of "Max Rows When Used as a Tool". */
export const DEFAULT_TOOL_MAX_ROWS = 50;
/** Default of "Max Output Size When Used as a Tool (KB)"; see docs/decisions.md for the reasoning. */
export const DEFAULT_TOOL_MAX_OUTPUT_KB = 32;
/** Highest accepted "Max Output Size When Used as a Tool (KB)": 1 GB of JSON is far beyond any model. */
export const MAX_TOOL_OUTPUT_KB = 1_048_576;

export const TOOL_ROWS_OPTION = 'Max Rows When Used as a Tool';
export const TOOL_SIZE_OPTION = 'Max Output Size When Used as a Tool (KB)';
export const TOOL_OUTPUT_LABEL = 'Output When Used as a Tool';
export const TOOL_FIELDS_LABEL = 'Fields When Used as a Tool';

/** "Max Output Size When Used as a Tool (KB)" in bytes (1 KB = 1,024 bytes); `undefined` gives the default. */
export function toolMaxOutputBytes(value: unknown): number {
	const kb = numberOf(value) ?? DEFAULT_TOOL_MAX_OUTPUT_KB;
	if (!(Number.isFinite(kb) && kb >= 1 && kb <= MAX_TOOL_OUTPUT_KB)) {
		throw new InputError(`${TOOL_SIZE_OPTION} must be a number from 1 to ${MAX_TOOL_OUTPUT_KB.toLocaleString('en-US')}, got ${String(value)}.`);
	}
	return Math.floor(kb * 1024);
}

export interface ToolRowsInput {
	/** The `json` of each row item, in output order (already cut to the row limit where it applied). */
	rows: readonly unknown[];
	/** The `json` of the other items of the output (e.g. export metadata); always kept. */
	otherItems: readonly unknown[];
	/**
	 * Rows the result has after `rows` that the row limit cut off: a count, `'unknown'` when the rest
	 * of the file was not read, 0 when there are none.
	 */
	rowsAfter: number | 'unknown';
	/**
	 * True when the result may hold rows beyond those counted that nobody can count (Execute Query at
	 * Nexthink's row limit): the note then says "at least".
	 */
	totalUnknown?: boolean;
	/** The row limit that applied and the option that sets it, for the note. */
	maxRows: number;
	rowLimitOption: string;
	maxBytes: number;
	/** What the rows are, for the note: "this export", "this query". */
	what: string;
	/** How to get every row outside the agent, a sentence for the note. */
	fullResultHint: string;
}

/** How many of `rows` fit (a prefix), and the note to output first that says what was left out, when rows were. */
export function limitToolRows(input: ToolRowsInput): { keptRows: number; note?: ReturnType<typeof toolNote> } {
	const sizes = input.rows.map(() => 0);
	// the JSON array: brackets, then each item and a comma between items
	let used = 2 + input.otherItems.reduce<number>((sum, item) => sum + jsonBytes(item) + 1, 0);
	let kept = 0;
	for (const row of input.rows) {
		const size = jsonBytes(row) + 1;
		if (used + size > input.maxBytes) break;
		sizes[kept] = size;
		used += size;
		kept++;
	}
	if (kept === input.rows.length && input.rowsAfter === 0) return { keptRows: kept };
	let note = toolNote(input, kept);
	while (kept > 0 && used + jsonBytes(note) + 1 > input.maxBytes) {
		kept--;
		used -= sizes[kept];
		note = toolNote(input, kept);
	}
	return { keptRows: kept, note };
}

/**
 * The note item: its message (`nexthinkToolNote`), the rows in this output, the rows known to be left
 * out, and whether more rows may exist that were not read or counted (`rowsLeftOut` is then a lower bound).
 */
function toolNote(input: ToolRowsInput, kept: number) {
	const cutBySize = input.rows.length - kept;
	const after = input.rowsAfter === 'unknown' ? 0 : input.rowsAfter;
	const unknown = input.rowsAfter === 'unknown';
	const leftOut = cutBySize + after;
	const total = kept + leftOut;
	const reasons: string[] = [];
	const options: string[] = [];
	if (input.rowsAfter !== 0) {
		reasons.push(`the tool returns at most ${plural(input.maxRows, 'row')} ("${input.rowLimitOption}")`);
		options.push(`"${input.rowLimitOption}"`);
	}
	if (cutBySize > 0) {
		reasons.push(`its output is limited to ${formatKb(input.maxBytes)} of JSON ("${TOOL_SIZE_OPTION}")`);
		options.push(`"${TOOL_SIZE_OPTION}"`);
	}
	const lowerBound = input.totalUnknown === true && !unknown;
	const notCounted = unknown
		? ' How many rows there are in all was not counted: the node stopped reading the results at the limit.'
		: lowerBound
			? ' How many rows there are in all is not known: the answer may have left rows out.'
			: '';
	const message =
		(unknown
			? `Incomplete result: only the first ${count(kept)} rows of ${input.what} are shown (it has at least ${count(total + 1)}), because ${reasons.join(' and ')}. `
			: `Incomplete result: only ${count(kept)} of ${lowerBound ? 'at least ' : ''}${count(total)} rows of ${input.what} are shown, because ${reasons.join(' and ')}. `) +
		`Tell the user that the answer is based on part of the rows.${notCounted} ` +
		`To get more rows, narrow the query (e.g. with query parameters), or ask the workflow's author to raise ${options.join(' or ')} in the node's options. ` +
		input.fullResultHint;
	return { nexthinkToolNote: message, rowsShown: kept, rowsLeftOut: leftOut, moreRowsNotCounted: unknown || lowerBound };
}

function count(value: number): string {
	return value.toLocaleString('en-US');
}

function formatKb(bytes: number): string {
	const kb = bytes / 1024;
	return `${Number.isInteger(kb) ? count(kb) : kb.toFixed(1)} KB`;
}

/** Bytes of a value's JSON text in UTF-8: what the model receives, before tokenising. */
export function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

export type ToolOutputShape = ReturnType<typeof readToolOutputShape>;

/** Reads and checks Output When Used as a Tool and its fields, before any request. */
export function readToolOutputShape(options: { outputAsTool?: unknown; fieldsAsTool?: unknown }) {
	const mode = readChoice(options.outputAsTool, TOOL_OUTPUT_LABEL, ['simplified', 'raw', 'selected'], 'simplified');
	if (mode !== 'selected') return { mode, fields: [] };
	const raw = options.fieldsAsTool;
	const fields = Array.isArray(raw) ? distinctColumnNames(raw.map(String).join(',')) : typeof raw === 'string' ? distinctColumnNames(raw) : [];
	if (fields.length === 0) {
		throw new InputError(`${TOOL_OUTPUT_LABEL} is Selected Fields, but "${TOOL_FIELDS_LABEL}" names no column. Name the columns to return, separated by commas, e.g. device.name, device.os.`, TOOL_FIELDS_LABEL);
	}
	return { mode, fields };
}

/**
 * The rows as the model gets them. `simplifiedColumns`: the catalogue's columns for the query, when
 * it lists some. A column to keep that no row has is an error naming the columns there are (a
 * misspelt column would otherwise give the model empty rows).
 */
export function shapeToolRows<R extends Record<string, unknown>>(rows: readonly R[], shape: ToolOutputShape, simplifiedColumns: readonly string[] = [], what = 'the result'): Array<Record<string, unknown>> {
	if (shape.mode === 'raw') return rows.map((row) => ({ ...row }));
	const columns = shape.mode === 'selected' ? shape.fields : simplifiedColumns;
	if (columns.length === 0) return rows.map(withoutEmptyValues);
	if (rows.length > 0) {
		const present = new Set(rows.flatMap((row) => Object.keys(row)));
		const absent = columns.filter((column) => !present.has(column));
		if (absent.length > 0) {
			const source = shape.mode === 'selected' ? `"${TOOL_FIELDS_LABEL}"` : 'the Query Catalogue\'s Simplified Columns';
			throw new InputError(
				`${absent.map((column) => `"${column.slice(0, 80)}"`).join(', ')} ${absent.length === 1 ? 'is not a column' : 'are not columns'} of ${what} (named in ${source}). Its columns: ${[...present].join(', ')}.`,
				shape.mode === 'selected' ? TOOL_FIELDS_LABEL : 'Query Catalogue',
			);
		}
	}
	return rows.map((row) => {
		const kept: Record<string, unknown> = {};
		for (const column of columns) if (Object.prototype.hasOwnProperty.call(row, column)) kept[column] = row[column];
		return kept;
	});
}

function withoutEmptyValues(row: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null && value !== undefined && value !== ''));
}
