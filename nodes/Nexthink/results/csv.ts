/**
 * A streaming RFC 4180 CSV parser over decoded text chunks. Fields are separated by commas and may be
 * quoted (`""` is one quote); records end with LF, CRLF or a lone CR; every record has as many fields
 * as the header, else a `CsvFormatError` names the line (blank lines, stray quotes and line numbers:
 * docs/decisions.md, "Results files"). Fields are slices of the chunk (views: whoever keeps values
 * copies them, readCsvRows.ts); between chunks only the unfinished field is carried, with how far it
 * was scanned, so a long field is scanned once. The limits are checked only then (docs/decisions.md,
 * "Results file limits", "Where checked"); the speed choices: docs/benchmarks.md.
 */

import { DEFAULT_RESULT_LIMITS, describeSize, MAX_COLUMNS, ResultLimitError, type ResultLimits } from './limits';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;
const END_OF_TEXT = -1;

export class CsvFormatError extends Error {
	/** 1-based line of the text where the problem is (for a ragged row: where the row starts). */
	readonly line: number;

	constructor(problem: string, line: number) {
		super(`Invalid CSV on line ${line}: ${problem}`);
		this.name = 'CsvFormatError';
		this.line = line;
	}
}

/**
 * Receives each record, the header first. The array is reused for the next record (allocating one
 * per record costs measurably at a million rows), so copy what must outlive the call. Returning
 * `false` stops the parser: later text is ignored and not checked.
 */
export type CsvRecordHandler = (fields: readonly string[]) => boolean | void;

/** Limits as in limits.ts (0 = no limit), their defaults when absent; `maxColumns` for tests. */
export type CsvParserLimits = Partial<Pick<ResultLimits, 'maxFieldChars' | 'maxRecordChars'>> & { maxColumns?: number };

export class CsvParser {
	private readonly onRecord: CsvRecordHandler;

	/** Unparsed text, starting at the first character of the current unfinished field. */
	private pending = '';

	/** How far into `pending` the current field has been scanned without finding its end. */
	private scanned = 0;

	/** Whether `pending` starts with a quote (kept apart: reading a character would flatten `pending`). */
	private pendingIsQuoted = false;

	/** Finished fields of the current record: the first `fieldCount` entries (the array is reused). */
	private readonly fields: string[] = [];
	private fieldCount = 0;

	/** Field count of the header; -1 until the header is complete. */
	private width = -1;

	/** Line at the start of the current field, and line where the current record started. */
	private line = 1;
	private recordLine = 1;

	private isStopped = false;
	private isEnded = false;

	/** Characters of the current record in earlier texts, not counting `pending`. */
	private recordCharsBefore = 0;

	private readonly maxFieldChars: number;
	private readonly maxRecordChars: number;
	private readonly maxColumns: number;

	constructor(onRecord: CsvRecordHandler, limits: CsvParserLimits = {}) {
		this.onRecord = onRecord;
		this.maxFieldChars = orInfinity(limits.maxFieldChars ?? DEFAULT_RESULT_LIMITS.maxFieldChars);
		this.maxRecordChars = orInfinity(limits.maxRecordChars ?? DEFAULT_RESULT_LIMITS.maxRecordChars);
		this.maxColumns = limits.maxColumns ?? MAX_COLUMNS;
	}

	/** Whether the record handler asked to stop. */
	get stopped(): boolean {
		return this.isStopped;
	}

	push(text: string): void {
		if (this.isEnded) throw new Error('CsvParser.push() called after end()');
		if (this.isStopped || text === '') return;
		if (this.pending === '') this.parse(text, false);
		// `join` builds one flat string; `+` would build a rope that every character access has to walk.
		else if (!this.extendPending(text)) this.parse([this.pending, text].join(''), false);
	}

	/** Marks the end of the text: completes the last record or reports an unterminated quote. */
	end(): void {
		if (this.isEnded) return;
		this.isEnded = true;
		if (!this.isStopped) this.parse(this.pending, true);
		this.pending = '';
	}

	private parse(text: string, final: boolean): void {
		const length = text.length;
		const fields = this.fields;
		let count = this.fieldCount;
		let start = 0;
		/** Where the current record starts in `text` (0 when it started in an earlier text). */
		let recordStart = 0;
		let scanFrom = this.scanned;
		this.scanned = 0;
		// The next comma, LF, CR and quote at or after the current field (else the text's length), each
		// found once with `indexOf` and reused until the parser passes it.
		let nextComma = -1;
		let nextLf = -1;
		let nextCr = -1;
		let nextQuote = -1;
		while (!this.isStopped) {
			if (start >= length) {
				// At a field start with no text left. After a comma the record ends with an empty field;
				// after a line break (or at the very beginning) there is no record.
				if (final && count > 0) {
					fields[count++] = '';
					this.completeRecord(count);
					count = 0;
				}
				break;
			}
			if (scanFrom <= start) {
				// Fast path: unquoted fields ending in a comma before the line break and the next quote.
				if (nextLf < start) nextLf = indexOrLength(text, '\n', start);
				if (nextCr < start) nextCr = indexOrLength(text, '\r', start);
				if (nextQuote < start) nextQuote = indexOrLength(text, '"', start);
				const recordEnd = nextLf < nextCr ? nextLf : nextCr;
				const bound = nextQuote < recordEnd ? nextQuote : recordEnd;
				if (nextComma < start) nextComma = indexOrLength(text, ',', start);
				while (nextComma < bound) {
					fields[count++] = text.slice(start, nextComma);
					start = nextComma + 1;
					nextComma = indexOrLength(text, ',', start);
				}
			}
			let end: number;
			let value: string;
			/** The character after the field: COMMA, LF or CR, or END_OF_TEXT. */
			let delimiter: number;
			let lineBreaks = 0;
			if (nextQuote < start) nextQuote = indexOrLength(text, '"', start);
			if (nextQuote === start) {
				end = findClosingQuote(text, scanFrom > start ? scanFrom : start + 1);
				if (end === -1 || (end + 1 >= length && !final)) {
					// The closing quote is not here yet, or it could still be the first half of `""`,
					// or the character deciding what follows it has not arrived.
					if (final) throw new CsvFormatError('a quoted field is not closed before the end of the file', this.line);
					this.carry(text, start, end === -1 ? length : end, count, recordStart);
					return;
				}
				value = text.slice(start + 1, end);
				if (value.includes('"')) value = value.replaceAll('""', '"');
				// The usual case needs no count: the next line breaks lie beyond the value. (They are at or
				// after `start` when the fast path above ran, and -1, so counted, when it did not.)
				if (!(end < nextLf && end < nextCr)) lineBreaks = countLineBreaks(value);
				end += 1;
				delimiter = end < length ? text.charCodeAt(end) : END_OF_TEXT;
				if (delimiter !== COMMA && delimiter !== LF && delimiter !== CR && delimiter !== END_OF_TEXT) {
					throw new CsvFormatError(`unexpected character ${describe(text, end)} after the closing quote of a field`, this.line + lineBreaks);
				}
			} else {
				const from = scanFrom > start ? scanFrom : start;
				if (nextComma < from) nextComma = indexOrLength(text, ',', from);
				if (nextLf < from) nextLf = indexOrLength(text, '\n', from);
				if (nextCr < from) nextCr = indexOrLength(text, '\r', from);
				if (nextComma < nextLf && nextComma < nextCr) {
					end = nextComma;
					delimiter = COMMA;
				} else if (nextLf < nextCr) {
					end = nextLf;
					delimiter = LF;
				} else {
					end = nextCr;
					delimiter = end < length ? CR : END_OF_TEXT;
				}
				if (nextQuote < end) {
					throw new CsvFormatError('a quote appears inside a field that does not start with a quote; such fields must be quoted and their quotes doubled', this.line);
				}
				if (delimiter === END_OF_TEXT && !final) {
					this.carry(text, start, end, count, recordStart);
					return;
				}
				value = text.slice(start, end);
			}
			let next = end + 1;
			if (delimiter === CR && next >= length && !final) {
				// A CR at the end of the chunk: wait for the next character to tell CRLF from a lone CR.
				// The field is rescanned from its start (a quoted field must find its opening quote again).
				this.carry(text, start, start, count, recordStart);
				return;
			}
			scanFrom = 0;
			if (lineBreaks !== 0) this.line += lineBreaks;
			if (delimiter === COMMA) {
				fields[count++] = value;
				start = next;
				continue;
			}
			if (delimiter === CR && text.charCodeAt(next) === LF) next++;
			// A blank line is a record (of one empty field) only in a file of one column.
			if (end !== start || count !== 0 || this.width === 1) {
				fields[count++] = value;
				this.completeRecord(count);
			}
			count = 0;
			if (delimiter !== END_OF_TEXT) this.line++;
			this.recordLine = this.line;
			this.recordCharsBefore = 0;
			start = next;
			recordStart = next;
		}
		this.fieldCount = count;
		this.pending = '';
		if (count > 0 && !this.isStopped) {
			// The text ended right after a comma: the record goes on in the next text.
			this.recordCharsBefore += length - recordStart;
			this.checkCarried(0, count - 1);
		}
	}

	/**
	 * Appends `text` to the carried field if the field does not end in it, so a field spanning many
	 * chunks is scanned once, not rescanned with every chunk. False when `text` has to be parsed.
	 */
	private extendPending(text: string): boolean {
		const pending = this.pending;
		let ambiguousQuote: boolean;
		if (this.pendingIsQuoted) {
			let from = 0;
			if (this.scanned === pending.length - 1) {
				// The carried field ends with a quote: it closes the field unless `text` starts with its pair.
				if (text.charCodeAt(0) !== QUOTE) return false;
				from = 1;
			} else if (this.scanned !== pending.length) {
				return false;
			}
			const quote = findClosingQuote(text, from);
			if (quote !== -1 && quote !== text.length - 1) return false;
			ambiguousQuote = quote !== -1;
		} else {
			if (this.scanned !== pending.length || findUnquotedEnd(text, 0) < text.length) return false;
			ambiguousQuote = false;
		}
		this.pending = pending + text;
		this.scanned = ambiguousQuote ? this.pending.length - 1 : this.pending.length;
		this.checkCarried(this.pending.length, this.fieldCount);
		return true;
	}

	/**
	 * Keeps the unfinished field starting at `start`, remembering that it was scanned up to `scanned`
	 * and that `fieldCount` fields of its record are complete.
	 */
	private carry(text: string, start: number, scanned: number, fieldCount: number, recordStart: number): void {
		this.fieldCount = fieldCount;
		this.recordCharsBefore += start - recordStart;
		this.checkCarried(text.length - start, fieldCount);
		this.pending = text.slice(start);
		this.scanned = scanned - start;
		this.pendingIsQuoted = text.charCodeAt(start) === QUOTE;
	}

	/** Applies the limits to an unfinished field of `fieldLength` characters after `fieldCount` finished ones. */
	private checkCarried(fieldLength: number, fieldCount: number): void {
		if (fieldLength > this.maxFieldChars) {
			throw new ResultLimitError(
				'maxFieldChars',
				this.maxFieldChars,
				`A field starting on line ${this.line} of the results is longer than ${describeSize(this.maxFieldChars)} (the field size limit)`,
			);
		}
		if (this.recordCharsBefore + fieldLength > this.maxRecordChars) {
			throw new ResultLimitError(
				'maxRecordChars',
				this.maxRecordChars,
				`The ${this.width === -1 ? 'header' : 'row'} starting on line ${this.recordLine} of the results is longer than ${describeSize(this.maxRecordChars)} (the row size limit)`,
			);
		}
		this.checkFieldCount(fieldCount + 1);
	}

	/** Fails as soon as a record (header or row) has more fields than any export has columns. */
	private checkFieldCount(count: number): void {
		if (count > this.maxColumns) {
			throw new ResultLimitError(
				'columns',
				this.maxColumns,
				`The ${this.width === -1 ? 'header' : 'row'} starting on line ${this.recordLine} of the results has more than ${this.maxColumns.toLocaleString('en-US')} fields`,
			);
		}
	}

	/** Hands the first `count` entries of `fields` to the handler as a record. */
	private completeRecord(count: number): void {
		if (this.width === -1) {
			this.checkFieldCount(count);
			this.width = count;
			this.fields.length = count;
		} else if (count !== this.width) {
			throw new CsvFormatError(`the row has ${count} field${count === 1 ? '' : 's'} but the header has ${this.width}`, this.recordLine);
		}
		if (this.onRecord(this.fields) === false) this.isStopped = true;
	}
}

function orInfinity(limit: number): number {
	return limit > 0 ? limit : Number.POSITIVE_INFINITY;
}

function indexOrLength(text: string, search: string, from: number): number {
	const index = text.indexOf(search, from);
	return index === -1 ? text.length : index;
}

/**
 * Index of the first comma, line break or quote at or after `from`, or `text.length`. One comparison
 * per ordinary character: every character that can end an unquoted field has a code up to the comma's.
 */
function findUnquotedEnd(text: string, from: number): number {
	const length = text.length;
	let index = from;
	while (index < length) {
		const code = text.charCodeAt(index);
		if (code <= COMMA && (code === COMMA || code === LF || code === CR || code === QUOTE)) return index;
		index++;
	}
	return length;
}

/** Index of the quote that closes a quoted field (skipping `""` pairs), or -1 if not in `text`. */
function findClosingQuote(text: string, from: number): number {
	let quote = text.indexOf('"', from);
	while (quote !== -1 && text.charCodeAt(quote + 1) === QUOTE) {
		quote = text.indexOf('"', quote + 2);
	}
	return quote;
}

/** Line breaks inside a quoted field: LF, CRLF and a lone CR each count once. */
function countLineBreaks(value: string): number {
	let count = 0;
	let index = value.indexOf('\n');
	while (index !== -1) {
		count++;
		index = value.indexOf('\n', index + 1);
	}
	index = value.indexOf('\r');
	while (index !== -1) {
		if (value.charCodeAt(index + 1) !== LF) count++;
		index = value.indexOf('\r', index + 1);
	}
	return count;
}

function describe(text: string, index: number): string {
	const code = text.charCodeAt(index);
	return code < 32 ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${text[index]}'`;
}
