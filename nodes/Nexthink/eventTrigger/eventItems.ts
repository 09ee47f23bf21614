/**
 * Turns one recognised call into the JSON of the trigger's output items, per channel (the shapes:
 * docs/event-trigger.md; why: docs/decisions.md, "Items of a batch"). An exporter batch's rows are
 * the parsed objects themselves, sharing one `nexthinkBatch` object. A body these rules do not take
 * fails with a `BodyShapeError` that names it. The call's headers (names in lower case, as n8n gives
 * them) and query go into items without secrets (`redact`).
 */
import { REDACTED } from '../transport';
import { isRecord } from '../shared/jsonValues';
import { BodyShapeError, recordArrayNames, type BodyShape } from './bodyShape';
import { guessEventTable, hasPlaceholders, type EventTable } from './eventTable';

export interface CallDetails {
	method: string;
	headers: Record<string, unknown>;
	query: Record<string, unknown>;
	receivedAt: string;
}

type Json = Record<string, unknown>;

const SECRET_NAME = /(auth|cookie|token|secret|passw|api[-_]?key|apikey|signature|session|credential|x-api)/i;

function containsSecret(value: unknown, secrets: string[]): boolean {
	if (typeof value === 'string') return secrets.some((secret) => secret.length > 0 && value.includes(secret));
	if (Array.isArray(value)) return value.some((member) => containsSecret(member, secrets));
	return false;
}

/**
 * Headers or query with `[redacted]` for every value whose name says it carries a credential
 * (Authorization, cookies, API keys, tokens, passwords, secrets, signatures) or that contains one of
 * the `secrets` the trigger knows (a credential sent in a custom header, or in the query).
 */
export function redact(values: Json | undefined, secrets: string[] = []): Json {
	const copy: Json = {};
	for (const [name, value] of Object.entries(values ?? {})) {
		copy[name] = SECRET_NAME.test(name) || containsSecret(value, secrets) ? REDACTED : value;
	}
	return copy;
}

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/** The events of a webhook body (parsed without batch splitting: see `classifyValue`). */
function eventsOf(body: BodyShape): unknown[] {
	if (body.shape === 'empty') return [];
	if (body.shape === 'array' || body.shape === 'ndjson') return body.rows;
	return [body.shape === 'records' ? { ...body.properties, [body.property]: body.rows } : body.value];
}

/** `configured`: the node's Event Table, for an event whose payload does not name its table. */
export function webhookItems(body: BodyShape, call: CallDetails, configured?: EventTable): Json[] {
	const events = eventsOf(body);
	return events.map((event, index) => {
		const table = guessEventTable(event, call.query, configured);
		return {
			body: event,
			headers: call.headers,
			query: call.query,
			method: call.method,
			nexthink: {
				channel: 'webhook',
				eventTable: table.table,
				eventTableBasis: table.basis,
				isTest: hasPlaceholders(event),
				receivedAt: call.receivedAt,
				eventIndex: index,
				eventCount: events.length,
			},
		};
	});
}

export function exporterItems(body: BodyShape, call: CallDetails, options: { batchId: string; includeRequest: boolean }): Json[] {
	if (body.shape === 'empty') return [];
	if (body.shape === 'scalar') {
		throw new BodyShapeError(`The batch is ${typeName(body.value)}, not rows: an exporter sends NDJSON, an array of objects or an object with one array`);
	}
	const arrays = body.shape === 'object' ? recordArrayNames(body.value) : [];
	if (arrays.length > 1) {
		throw new BodyShapeError(`The batch has several arrays of records (${arrays.join(', ')}): set Records Property to the one that holds the rows`);
	}
	const rows = body.shape === 'object' ? [body.value] : body.rows;
	const badRow = rows.findIndex((row) => !isRecord(row));
	if (badRow >= 0) throw new BodyShapeError(`Row ${badRow + 1} of the batch is ${typeName(rows[badRow])}, not an object`);
	const batch: Json = { id: options.batchId, rowCount: rows.length, shape: body.shape === 'object' ? 'ndjson' : body.shape, receivedAt: call.receivedAt };
	if (body.shape === 'records') {
		batch.recordsProperty = body.property;
		batch.properties = body.properties;
	}
	if (options.includeRequest) {
		batch.method = call.method;
		batch.headers = call.headers;
		batch.query = call.query;
	}
	// one object for every row: n8n stores shared objects once (its execution data is `flatted`)
	const items = rows as Json[];
	for (const item of items) item.nexthinkBatch = batch;
	return items;
}

export function workflowCallItem(body: BodyShape, call: CallDetails): Json {
	const events = eventsOf(body);
	const value = body.shape === 'empty' ? {} : body.shape === 'array' || body.shape === 'ndjson' ? events : events[0];
	return { body: value, headers: call.headers, query: call.query, method: call.method, nexthink: { channel: 'workflowCall', receivedAt: call.receivedAt } };
}
