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
	const names = headers.map(String);
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

function metadataOf(object: IDataObject, rowCount: number): IDataObject {
	return {
		queryId: object.queryId ?? null,
		executedQuery: object.executedQuery ?? null,
		rows: typeof object.rows === 'number' ? object.rows : rowCount,
		executionDateTime: object.executionDateTime ?? null,
	};
}

function asObject(body: unknown): IDataObject {
	const parsed = typeof body === 'string' ? JSON.parse(body) : body;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new ExecuteResponseError('The execute answer is not a JSON object.');
	}
	return parsed as IDataObject;
}
