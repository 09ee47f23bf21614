/**
 * Turns the answers of the synchronous execute endpoints into rows (reference/nexthink-api.md 2.1,
 * 2.2): v2 sends `data` as objects keyed by field name; v1 sends `headers` plus `data` as arrays in
 * header order. Pure, so each shape is tested without a server.
 */
import type { IDataObject } from 'n8n-workflow';

/** Nexthink returns at most about this many rows from execute and drops the rest silently. */
export const EXECUTE_ROW_LIMIT = 1000;

export interface ExecuteResult {
	rows: IDataObject[];
	metadata: IDataObject;
}

export class ExecuteResponseError extends Error {}

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
	return { rows, metadata: metadataOf(object, rows.length) };
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
	const parsed = typeof body === 'string' ? parseJson(body) : body;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new ExecuteResponseError(body === '' || body === undefined || body === null ? 'The execute answer is empty.' : 'The execute answer is not a JSON object.');
	}
	return parsed as IDataObject;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
