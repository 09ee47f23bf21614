/**
 * Grouping of prepared items into enrichment requests: consecutive batches of `batchSize` items;
 * within a batch, items that identify the same object are merged in input order (a later value
 * wins), each keeping its own outcome. Across batches such items are simply sent again, in order.
 */
import type { Identification, PreparedItem, WireField } from './itemPreparation';

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

export function identificationKey(identification: Identification): string {
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
	const objects: BatchObject[] = [];
	const byIdentification = new Map<string, { object: BatchObject; fieldPositions: Map<string, number> }>();
	for (const item of items) {
		const key = identificationKey(item.identification);
		let entry = byIdentification.get(key);
		if (entry === undefined) {
			entry = {
				object: { identification: item.identification, fields: [], itemIndexes: [] },
				fieldPositions: new Map(),
			};
			byIdentification.set(key, entry);
			objects.push(entry.object);
		}
		entry.object.itemIndexes.push(item.itemIndex);
		for (const field of item.fields) {
			const position = entry.fieldPositions.get(field.name);
			if (position === undefined) {
				entry.fieldPositions.set(field.name, entry.object.fields.length);
				entry.object.fields.push({ name: field.name, value: field.value });
			} else {
				entry.object.fields[position] = { name: field.name, value: field.value };
			}
		}
	}
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
