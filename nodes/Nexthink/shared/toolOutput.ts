/**
 * What an AI agent gets back when it runs a node that outputs rows as a tool: rows bounded by count
 * (while the file is read) and by the UTF-8 bytes of their JSON (here), and a note first saying what
 * was left out. The note and the items that are not rows are always output (docs/decisions.md, "As
 * an AI agent's tool"). Pure: no n8n imports.
 */

import { InputError } from './inputError';

/** Default of "Max Rows When Used as a Tool". */
export const DEFAULT_TOOL_MAX_ROWS = 50;
/** Default of "Max Output Size When Used as a Tool (KB)"; see docs/decisions.md for the reasoning. */
export const DEFAULT_TOOL_MAX_OUTPUT_KB = 32;
/** Highest accepted "Max Output Size When Used as a Tool (KB)": 1 GB of JSON is far beyond any model. */
export const MAX_TOOL_OUTPUT_KB = 1_048_576;

export const TOOL_ROWS_OPTION = 'Max Rows When Used as a Tool';
export const TOOL_SIZE_OPTION = 'Max Output Size When Used as a Tool (KB)';

/** The key of the note item's message (the item also has `rowsShown`, `rowsLeftOut`, `moreRowsNotCounted`). */
export const TOOL_NOTE_KEY = 'nexthinkToolNote';

export interface ToolNote {
	[TOOL_NOTE_KEY]: string;
	/** Rows in this output. */
	rowsShown: number;
	/** Rows known to be left out. */
	rowsLeftOut: number;
	/** True when further rows may exist that were not read or not counted, so `rowsLeftOut` is a lower bound. */
	moreRowsNotCounted: boolean;
}


/** "Max Output Size When Used as a Tool (KB)" in bytes (1 KB = 1,024 bytes); `undefined` gives the default. */
export function toolMaxOutputBytes(value: unknown): number {
	if (value === undefined || value === null || value === '') return DEFAULT_TOOL_MAX_OUTPUT_KB * 1024;
	const kb = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
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
	totalIsLowerBound?: boolean;
	/** The row limit that applied and the option that sets it, for the note. */
	rowLimit: { value: number; option: string };
	maxBytes: number;
	/** What the rows are, for the note: "this export", "this query". */
	what: string;
	/** How to get every row outside the agent, a sentence for the note. */
	fullResultHint: string;
}

export interface ToolRowsResult {
	/** How many of `rows` to output (a prefix). */
	keptRows: number;
	/** The note to output first, when rows were left out. */
	note?: ToolNote;
}

/** Decides how many rows fit, and the note that says what was left out. */
export function limitToolRows(input: ToolRowsInput): ToolRowsResult {
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

function toolNote(input: ToolRowsInput, kept: number): ToolNote {
	const cutBySize = input.rows.length - kept;
	const after = input.rowsAfter === 'unknown' ? 0 : input.rowsAfter;
	const unknown = input.rowsAfter === 'unknown';
	const leftOut = cutBySize + after;
	const total = kept + leftOut;
	const reasons: string[] = [];
	const options: string[] = [];
	if (input.rowsAfter !== 0) {
		reasons.push(`the tool returns at most ${count(input.rowLimit.value)} row${input.rowLimit.value === 1 ? '' : 's'} ("${input.rowLimit.option}")`);
		options.push(`"${input.rowLimit.option}"`);
	}
	if (cutBySize > 0) {
		reasons.push(`its output is limited to ${formatKb(input.maxBytes)} of JSON ("${TOOL_SIZE_OPTION}")`);
		options.push(`"${TOOL_SIZE_OPTION}"`);
	}
	const lowerBound = input.totalIsLowerBound === true && !unknown;
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
	return { [TOOL_NOTE_KEY]: message, rowsShown: kept, rowsLeftOut: leftOut, moreRowsNotCounted: unknown || lowerBound };
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
	return utf8Length(JSON.stringify(value) ?? 'null');
}

function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}
