/**
 * Turns the answers of the execute endpoints (https://docs.nexthink.com/api/nql/execute-an-nql) into
 * rows: v2 sends `data` as objects; v1 `headers` plus `data` as arrays in header order. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { isRecord, parseJson } from '../shared/jsonValues';

/** Nexthink returns at most about this many rows from execute and drops the rest silently. */
export const EXECUTE_ROW_LIMIT = 1000;

export interface ExecuteResult {
	rows: IDataObject[];
	metadata: IDataObject;
	/** v1 only: the answer's `headers`, which name the columns even when there are no rows. */
	columns?: string[];
}

export class ExecuteResponseError extends Error {}

/** Default bound on an execute answer's size: about 1,000 rows fit in a few MB, so 64 MB leaves a wide margin. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An execute answer that went past its size or value-count bound; the message says which and what to do. */
export class ExecuteAnswerLimitError extends Error {}

/** Most values (rows × columns) an execute answer may hold: keeps it within about 100 MB of objects. Not an option. */
export const EXECUTE_MAX_VALUES = 1_000_000;

export function tooManyValues(): ExecuteAnswerLimitError {
	return new ExecuteAnswerLimitError(
		`The execute answer holds more than ${EXECUTE_MAX_VALUES.toLocaleString('en-US')} values, far more than the about ${EXECUTE_ROW_LIMIT.toLocaleString('en-US')} rows Nexthink returns: it is not a genuine answer. Check the API base URL of the credential.`,
	);
}

/** Whether a JSON text holds more than `max` values (commas and opening brackets outside strings), before parsing it. */
export function jsonHasMoreValuesThan(text: string, max: number): boolean {
	let count = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (inString) {
			if (code === 0x5c) index++; // backslash: skip the escaped character
			else if (code === 0x22) inString = false;
		} else if (code === 0x22) {
			inString = true;
		} else if ((code === 0x2c || code === 0x7b || code === 0x5b) && ++count > max) {
			return true;
		}
	}
	return false;
}

/** The error for an answer past Max Answer Size (also when its text was compressed without saying so). */
export function answerTooLarge(maxBytes: number): ExecuteAnswerLimitError {
	return new ExecuteAnswerLimitError(
		`The execute answer is larger than ${maxBytes / (1024 * 1024)} MB (counted after decompression). If it is genuine, raise "Max Answer Size (MB)" in the node's options (0 = no limit); for large results use the Export operation.`,
	);
}

export function readExecuteV2(body: unknown): ExecuteResult {
	const object = asObject(body);
	if (!Array.isArray(object.data)) throw new ExecuteResponseError('The execute answer has no "data" list.');
	const rows = object.data.map((row, index) => {
		if (typeof row !== 'object' || row === null || Array.isArray(row)) {
			throw new ExecuteResponseError(`Row ${index + 1} of the execute answer is not an object.`);
		}
		return row as IDataObject;
	});
	return { rows, metadata: metadataOf(object, rows.length) };
}

export function readExecuteV1(body: unknown): ExecuteResult {
	const object = asObject(body);
	const { headers, data } = object;
	if (!Array.isArray(headers) || !Array.isArray(data)) {
		throw new ExecuteResponseError('The v1 execute answer needs "headers" and "data" lists.');
	}
	const bad = headers.findIndex((name) => typeof name !== 'string');
	if (bad !== -1) throw new ExecuteResponseError(`Header ${bad + 1} of the v1 execute answer is not a text name.`);
	const names = headers as string[];
	const rows = data.map((values, index) => {
		if (!Array.isArray(values) || values.length !== names.length) {
			throw new ExecuteResponseError(`Row ${index + 1} of the execute answer has ${Array.isArray(values) ? values.length : 'no'} values for ${names.length} headers.`);
		}
		const row: IDataObject = {};
		names.forEach((name, column) => (row[name] = values[column] as IDataObject[string]));
		return row;
	});
	return { rows, metadata: metadataOf(object, rows.length), columns: names };
}

/** Only values of the documented types reach the metadata; anything else becomes null. */
function metadataOf(object: IDataObject, rowCount: number): IDataObject {
	const text = (value: unknown) => (typeof value === 'string' ? value : null);
	const dateTime = object.executionDateTime;
	return {
		queryId: text(object.queryId),
		executedQuery: text(object.executedQuery),
		rows: Number.isSafeInteger(object.rows) ? (object.rows as number) : rowCount,
		executionDateTime: typeof dateTime === 'string' || (typeof dateTime === 'object' && dateTime !== null && !Array.isArray(dateTime)) ? dateTime : null,
	};
}

function asObject(body: unknown): IDataObject {
	const parsed = typeof body === 'string' ? parseJson(body).value : body;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new ExecuteResponseError(body === '' || body === undefined || body === null ? 'The execute answer is empty.' : 'The execute answer is not a JSON object.');
	}
	return parsed as IDataObject;
}

/** Offsets this far (minutes) from a multiple of 15 minutes are not read as a time zone (see executionDateTimeWithZone). */
const ZONE_TOLERANCE_MINUTES = 5;

/**
 * `executionDateTime` as ISO 8601 with its UTC offset (`2026-11-23T11:15:00+01:00`), the offset read
 * from when the answer arrived, or null when it cannot be made unambiguous (docs/decisions.md,
 * "Execute Query's `executionDateTime`").
 */
export function executionDateTimeWithZone(raw: unknown, context: { utc: boolean; answeredAtMs: number }): string | null {
	const parts = dateTimeParts(raw);
	if (parts === undefined) return null;
	if (parts.zone !== undefined) return typeof raw === 'string' ? raw : null;
	const [year, month, day, hour, minute, second] = parts.fields;
	const wallMs = Date.UTC(year, month - 1, day, hour, minute, second);
	let offsetMinutes = 0;
	if (!context.utc) {
		const differenceMinutes = (wallMs - context.answeredAtMs) / 60_000;
		offsetMinutes = Math.round(differenceMinutes / 15) * 15;
		if (Math.abs(differenceMinutes - offsetMinutes) > ZONE_TOLERANCE_MINUTES || Math.abs(offsetMinutes) > 14 * 60) return null;
	}
	const pad = (value: number, width = 2) => String(value).padStart(width, '0');
	const wall = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
	if (offsetMinutes === 0) return `${wall}Z`;
	const sign = offsetMinutes > 0 ? '+' : '-';
	const absolute = Math.abs(offsetMinutes);
	return `${wall}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** Year, month, day, hour, minute and second (0 when absent) of a text or an object, and the text's zone. */
function dateTimeParts(raw: unknown): { fields: number[]; zone?: string } | undefined {
	let values: unknown[];
	let zone: string | undefined;
	if (typeof raw === 'string') {
		const match = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/.exec(raw.trim());
		if (match === null) return undefined;
		values = match.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
		zone = match[7];
	} else if (isRecord(raw)) {
		values = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((name) => (Number.isInteger(raw[name]) ? raw[name] : undefined));
	} else {
		return undefined;
	}
	values[5] ??= 0;
	if (!values.every(Number.isInteger)) return undefined;
	const [, month, day, hour, minute, second] = values as number[];
	const valid = month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60;
	return valid ? { fields: values as number[], zone } : undefined;
}
