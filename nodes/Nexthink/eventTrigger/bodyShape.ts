/**
 * Recognises the JSON a Nexthink call carries, from the raw text or from the value n8n already
 * parsed, parsing each character once: `ndjson`, `array`, `records` (an object with exactly one
 * array of objects, plus the batch's other properties), `object`, `scalar` or `empty`. Which shape
 * is which: docs/decisions.md, "Nexthink Event Trigger" ("Which shape").
 */
import { isRecord, parseJson } from '../shared/jsonValues';

/** A body that is not the JSON a channel takes: its message names where or what, never the text itself (it may hold personal data). */
export class BodyShapeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BodyShapeError';
	}
}

export type BodyShape =
	| { shape: 'empty' }
	| { shape: 'object'; value: Record<string, unknown> }
	| { shape: 'array'; rows: unknown[] }
	| { shape: 'ndjson'; rows: unknown[] }
	| { shape: 'records'; property: string; rows: unknown[]; properties: Record<string, unknown> }
	| { shape: 'scalar'; value: unknown };

/** Where JSON.parse stopped, as "line L, column C" of `text`, from the position V8 reports in `problem`. */
function wherePartFailed(text: string, problem: string): string {
	const position = /position (\d+)/.exec(problem);
	if (!position) return 'the text is not valid JSON';
	const offset = Number(position[1]);
	const before = text.slice(0, offset);
	const line = before.split('\n').length;
	const column = offset - before.lastIndexOf('\n');
	return `the JSON breaks at line ${line}, column ${column}`;
}

/** The value of `text`, else a `BodyShapeError` that says `where`, or where the JSON breaks. */
function parseBodyJson(text: string, where: string): unknown {
	const { value, problem } = parseJson(text);
	if (problem === undefined) return value;
	throw new BodyShapeError(`The body is not valid JSON: ${where || wherePartFailed(text, problem)}`);
}

/** The arrays of objects among an object's own properties (an empty array counts: a batch of no rows); more than one makes a records batch ambiguous. */
export function recordArrayNames(value: Record<string, unknown>): string[] {
	return Object.entries(value).flatMap(([key, member]) => (Array.isArray(member) && member.every(isRecord) ? [key] : []));
}

/**
 * Classifies a value already parsed. `records`: the name of the array of records when the user set
 * one, '' to find the single array of objects, or false when an object is never a batch (events and
 * workflow calls keep their arrays).
 */
export function classifyValue(value: unknown, records: string | false = ''): BodyShape {
	if (value === undefined || value === '') return { shape: 'empty' };
	if (Array.isArray(value)) return { shape: 'array', rows: value };
	if (!isRecord(value)) return { shape: 'scalar', value };
	if (records === false) return { shape: 'object', value };
	const candidates = records ? (Array.isArray(value[records]) ? [records] : []) : recordArrayNames(value);
	if (candidates.length !== 1) return { shape: 'object', value };
	const property = candidates[0];
	const properties: Record<string, unknown> = {};
	for (const key of Object.keys(value)) if (key !== property) properties[key] = value[key];
	return { shape: 'records', property, rows: value[property] as unknown[], properties };
}

/** Parses each non-blank line; `firstLine` is the number of the text's first line in the body. */
function parseLines(text: string, firstLine: number): unknown[] {
	const rows: unknown[] = [];
	const lines = text.split('\n');
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index].trim();
		if (line === '') continue;
		rows.push(parseBodyJson(line, `line ${firstLine + index} of the NDJSON body is not a JSON value`));
	}
	return rows;
}

/**
 * Parses a body's text. A text whose first line is a complete JSON value and which has more
 * non-blank lines is NDJSON; any other text is parsed as one JSON document. So a pretty-printed
 * object (whose first line is `{`) is one document, and each character is parsed once.
 */
export function parseBodyText(rawText: string, records: string | false = ''): BodyShape {
	const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
	const trimmed = text.trim();
	if (trimmed === '') return { shape: 'empty' };
	const firstBreak = trimmed.indexOf('\n');
	if (firstBreak > 0 && (trimmed[0] === '{' || trimmed[0] === '[')) {
		const first = parseJson(trimmed.slice(0, firstBreak).trim());
		if (first.problem === undefined) {
			const rest = parseLines(trimmed.slice(firstBreak + 1), 2);
			if (rest.length > 0) return { shape: 'ndjson', rows: [first.value, ...rest] };
			return classifyValue(first.value, records);
		}
	}
	return classifyValue(parseBodyJson(trimmed, ''), records);
}
