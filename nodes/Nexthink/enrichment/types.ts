/**
 * The Enrichment node's shared vocabulary: what identifies an object, the fields sent for it, and
 * the requests built from the items (batching.ts builds them, batchAnswer.ts reads their answers,
 * itemOutcome.ts turns both into each item's outcome).
 */
import type { WireValue } from './valueConversion';

export interface Identification {
	name: string;
	value: string;
}

export interface WireField {
	name: string;
	value: WireValue;
}

/** An input item that passed validation: what it identifies and the fields it sets, in the order given. */
export interface PreparedItem {
	itemIndex: number;
	identification: Identification;
	fields: WireField[];
}

/** One enrichment of a request, and the input items it was built from. */
export interface BatchObject {
	identification: Identification;
	fields: WireField[];
	itemIndexes: number[];
}

export interface Batch {
	objects: BatchObject[];
}

export interface EnrichmentRequestBody {
	enrichments: Array<{ identification: Identification[]; fields: WireField[] }>;
	domain: string;
}
