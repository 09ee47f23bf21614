/**
 * The Enrichment API's requests: prepared items in batches, with the items of a batch that identify
 * the same object merged; the call for one batch (setting the same values twice changes nothing, so it
 * may be retried) and its answer read back onto the batch's objects. The rules of both:
 * docs/enrichment.md, "Batching and duplicates" and "How answers map to items".
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { isRecord } from '../shared/jsonValues';
import { plural } from '../shared/wording';
import { nexthinkRequest, PROXY_MAY_HAVE_ANSWERED, unexpectedAnswer, type AnswerOrigin } from '../transport';
import type { Identification, PreparedItem, WireField } from './itemPreparation';
import type { EnrichmentError } from './itemOutcome';
import type { WireValue } from './valueConversion';

/** One enrichment of a request, and the input items it was built from. */
export interface BatchObject {
	identification: Identification;
	fields: WireField[];
	itemIndexes: number[];
}

export interface Batch {
	objects: BatchObject[];
}

export const DEFAULT_BATCH_SIZE = 1000;
/** The API accepts at most 10,000 enrichments per request. */
export const MAX_BATCH_SIZE = 10_000;

function identificationKey(identification: Identification): string {
	return `${identification.name}\u0000${identification.value}`;
}

export function buildBatches(items: readonly PreparedItem[], batchSize: number): Batch[] {
	if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
		throw new RangeError(`Batch size must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${batchSize}.`);
	}
	const batches: Batch[] = [];
	for (let start = 0; start < items.length; start += batchSize) {
		batches.push(mergeIntoBatch(items.slice(start, start + batchSize)));
	}
	return batches;
}

function mergeIntoBatch(items: readonly PreparedItem[]): Batch {
	// a Map keeps the order of first appearance, and a later value of a field replaces the earlier in place
	const byIdentification = new Map<string, { identification: Identification; fields: Map<string, WireValue>; itemIndexes: number[] }>();
	for (const item of items) {
		const key = identificationKey(item.identification);
		let entry = byIdentification.get(key);
		if (entry === undefined) {
			entry = { identification: item.identification, fields: new Map(), itemIndexes: [] };
			byIdentification.set(key, entry);
		}
		entry.itemIndexes.push(item.itemIndex);
		for (const field of item.fields) entry.fields.set(field.name, field.value);
	}
	const objects = [...byIdentification.values()].map(({ identification, fields, itemIndexes }) => ({
		identification,
		fields: [...fields].map(([name, value]) => ({ name, value })),
		itemIndexes,
	}));
	return { objects };
}

export function requestBody(batch: Batch, domain: string) {
	return {
		enrichments: batch.objects.map((object) => ({
			identification: [object.identification],
			fields: object.fields,
		})),
		domain,
	};
}

/** Where to check what an enrichment request whose answer proves nothing may have written. */
const MAY_HAVE_WRITTEN =
	'Nexthink may have written some or all of its values: read the fields back with NQL (e.g. devices | where name == … | list …) before relying on them or sending them again.';

export async function enrichBatch(
	ctx: IExecuteFunctions,
	batch: Batch,
	settings: { objectType: string; domain: string; timeoutMs: number },
): Promise<ObjectResult[]> {
	const response = await nexthinkRequest(ctx, {
		method: 'POST',
		path: '/api/v1/enrichment/data/fields',
		body: requestBody(batch, settings.domain),
		idempotent: true,
		mayHaveRunNote: MAY_HAVE_WRITTEN,
		acceptStatus: [207, 400],
		timeoutMs: settings.timeoutMs,
		action: `Enriching ${plural(batch.objects.length, `${settings.objectType} object`)}`,
	});
	return interpretResponse(batch, response.statusCode, response.body, { headers: response.headers, host: response.host });
}

export interface ObjectResult {
	applied: boolean;
	errors: EnrichmentError[];
	/** API errors this batch's answer held that could not be matched to an object. */
	warnings: EnrichmentError[];
}

/** An answer that confirms nothing, and a request the API refused as a whole, as their objects' error. */
export const unexpectedResponse = (message: string): EnrichmentError => ({ code: 'UNEXPECTED_RESPONSE', message, source: 'api' });
const batchRejected = (message: string): EnrichmentError => ({ code: 'BATCH_REJECTED', message, source: 'api' });

/** `origin` (headers and host) only words the failure of a 2xx without the documented body. */
export function interpretResponse(batch: Batch, statusCode: number, body: unknown, origin: Omit<AnswerOrigin, 'statusCode'> = {}): ObjectResult[] {
	const listed = listedErrors(batch, body);
	if (statusCode >= 200 && statusCode < 300) {
		if (isRecord(body) && body.status === 'success') return batch.objects.map(() => ({ applied: true, errors: [], warnings: [] }));
		if (listed !== undefined && (statusCode === 207 || (isRecord(body) && body.status === 'partial_success'))) {
			return listed.perObject.map((errors) =>
				errors.length > 0 ? { applied: false, errors, warnings: [] } : { applied: true, errors: [], warnings: listed.unmatched },
			);
		}
		return failBatch(
			batch,
			unexpectedResponse(
				statusCode === 207
					? 'The API reported a partial success (HTTP 207) without saying which objects failed, so none can be confirmed as applied.'
					: `${unexpectedAnswer({ statusCode, ...origin }, true)}: not the Enrichment API's {"status": "success"}, so none of this request's objects can be confirmed as applied. ${PROXY_MAY_HAVE_ANSWERED}`,
			),
		);
	}

	if (statusCode === 400 && listed !== undefined) {
		const rejected = batchRejected('The API rejected the whole request (HTTP 400); it listed errors for other objects of the same request, none for this one.');
		const fallback = listed.unmatched.length > 0 ? listed.unmatched : [rejected];
		return listed.perObject.map((errors) => ({ applied: false, errors: errors.length > 0 ? errors : fallback, warnings: [] }));
	}
	if (statusCode === 400) return failBatch(batch, apiError(body) ?? batchRejected('The API rejected the request (HTTP 400) without saying why.'));
	return failBatch(batch, unexpectedResponse(`The API answered HTTP ${statusCode}, which the Enrichment API does not define.`));
}

/** The same error for every object of the batch (request refused, retries exhausted, not sent). */
export function failBatch(batch: Batch, error: EnrichmentError): ObjectResult[] {
	return batch.objects.map(() => ({ applied: false, errors: [error], warnings: [] }));
}

/**
 * The `errors` list of a 207/400 body matched to the batch's objects by identification, exactly, then
 * ignoring case: each object's errors, and those that named no object; undefined when the body has none.
 */
function listedErrors(batch: Batch, body: unknown): { perObject: EnrichmentError[][]; unmatched: EnrichmentError[] } | undefined {
	if (!isRecord(body) || !Array.isArray(body.errors)) return undefined;
	const exact = new Map<string, number>();
	const folded = new Map<string, number | 'ambiguous'>();
	batch.objects.forEach((object, position) => {
		exact.set(identificationKey(object.identification), position);
		const key = identificationKey(object.identification).toLowerCase();
		folded.set(key, folded.has(key) ? 'ambiguous' : position);
	});
	const perObject: EnrichmentError[][] = batch.objects.map(() => []);
	const unmatched: EnrichmentError[] = [];
	for (const entry of body.errors) {
		if (!isRecord(entry)) continue;
		const first = Array.isArray(entry.identification) ? entry.identification[0] : undefined;
		const identification: Identification = isRecord(first)
			? { name: String(first.name ?? ''), value: String(first.value ?? '') }
			: { name: '', value: '' };
		const given = Array.isArray(entry.errors)
			? entry.errors.map(apiError).filter((error): error is EnrichmentError => error !== undefined)
			: [];
		const errors = given.length > 0 ? given : [unexpectedResponse('The API listed this object as failed without an error.')];
		const key = identificationKey(identification);
		const position = exact.get(key) ?? folded.get(key.toLowerCase());
		if (typeof position === 'number') {
			perObject[position].push(...errors);
		} else {
			const named = `${identification.name} = ${identification.value}`;
			unmatched.push(...errors.map((error) => ({ ...error, message: `${named}: ${error.message}` })));
		}
	}
	return { perObject, unmatched };
}

function apiError(value: unknown): EnrichmentError | undefined {
	if (!isRecord(value) || (value.message === undefined && value.code === undefined)) return undefined;
	const error = unexpectedResponse(value.message === undefined ? '' : String(value.message));
	return value.code === undefined ? error : { ...error, code: String(value.code) };
}
