/**
 * Which fields of each row a tool run gives the model ("Output When Used as a Tool"), applied before
 * the row and size bounds of toolOutput.ts, so that narrower rows let more of them fit:
 * - Simplified (default): the columns the query catalogue lists for the query (queryCatalogue.ts,
 *   "Simplified Columns"); without them, every column but those with an empty value (null or "").
 * - Raw: every column as Nexthink gave it.
 * - Selected Fields: the columns named in "Fields When Used as a Tool" (the author's list, or one a
 *   model fills through $fromAI()).
 * Outside a tool run rows are never shaped.
 *
 * Pure, apart from the options' descriptions (type-only import).
 */
import type { INodeProperties } from 'n8n-workflow';

import { InputError } from './inputError';
import { parseColumnList } from './queryCatalogue';

export type ToolOutputMode = 'simplified' | 'raw' | 'selected';

export const TOOL_OUTPUT_LABEL = 'Output When Used as a Tool';
export const TOOL_FIELDS_LABEL = 'Fields When Used as a Tool';

export interface ToolOutputShape {
	mode: ToolOutputMode;
	/** Selected Fields: the columns to keep. */
	fields: string[];
}

/** Reads and checks the two options, before any request. */
export function readToolOutputShape(options: { outputAsTool?: unknown; fieldsAsTool?: unknown }): ToolOutputShape {
	const mode = options.outputAsTool ?? 'simplified';
	if (mode !== 'simplified' && mode !== 'raw' && mode !== 'selected') {
		throw new InputError(`${TOOL_OUTPUT_LABEL} must be simplified, raw or selected, got ${JSON.stringify(mode)?.slice(0, 60)}.`, TOOL_OUTPUT_LABEL);
	}
	if (mode !== 'selected') return { mode, fields: [] };
	const raw = options.fieldsAsTool;
	const fields = Array.isArray(raw) ? parseColumnList(raw.map(String).join(',')) : typeof raw === 'string' ? parseColumnList(raw) : [];
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

/** The two options, in the collections of the operations that output rows. */
export const TOOL_OUTPUT_OPTIONS: INodeProperties[] = [
	{
		displayName: TOOL_FIELDS_LABEL,
		name: 'fieldsAsTool',
		type: 'string',
		default: '',
		placeholder: 'device.name, device.os.name',
		description: 'With Output When Used as a Tool set to Selected Fields: the columns to return, separated by commas',
		displayOptions: { show: { outputAsTool: ['selected'] } },
	},
	{
		displayName: TOOL_OUTPUT_LABEL,
		name: 'outputAsTool',
		type: 'options',
		default: 'simplified',
		options: [
			{ name: 'Simplified', value: 'simplified', description: 'The Query Catalogue\'s Simplified Columns for the query; without them every column but empty values' },
			{ name: 'Raw', value: 'raw', description: 'Every column as Nexthink gives it' },
			{ name: 'Selected Fields', value: 'selected', description: 'Only the columns named in Fields When Used as a Tool' },
		],
		description: 'Which columns of each row an AI agent gets when it runs this node as a tool; narrower rows let more of them fit in Max Output Size When Used as a Tool',
	},
];
