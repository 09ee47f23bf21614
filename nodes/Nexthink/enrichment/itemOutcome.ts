/**
 * The outcome every input item carries out of the node (under the `enrichment` key of its JSON), its
 * errors, and the line used when a failure has to stop the workflow.
 */
import { InputError } from '../shared/inputError';
import { failureOf } from '../shared/nodeErrors';
import type { Batch, ObjectResult } from './api';
import type { Identification } from './itemPreparation';
import type { ObjectType } from './fieldCatalogue';
import type { WireValue } from './valueConversion';

export interface EnrichmentError {
	code: string;
	message: string;
	source: 'node' | 'api';
}

/** Codes for problems the node finds in an item before anything is sent. */
export const INPUT_ERROR_CODES = {
	missingIdentification: 'MISSING_IDENTIFICATION',
	invalidIdentification: 'INVALID_IDENTIFICATION',
	invalidField: 'INVALID_FIELD',
	invalidValue: 'INVALID_VALUE',
	noFields: 'NO_FIELDS',
} as const;

/** What an item's checks threw, as its outcome error: an InputError keeps its code, anything else is PARAMETER_ERROR. */
export function enrichmentErrorOf(error: unknown): EnrichmentError {
	const code = error instanceof InputError && error.code !== undefined ? error.code : 'PARAMETER_ERROR';
	return { code, message: failureOf(error).message, source: 'node' };
}

/** Its keys, and an error's `source` (`node`: found before sending, `api`: reported by Nexthink): docs/enrichment.md, "Outcomes". */
export interface ItemOutcome {
	status: 'applied' | 'failed' | 'valid';
	applied: boolean;
	objectType: ObjectType;
	identification: Identification | null;
	fields: Record<string, WireValue>;
	errors: EnrichmentError[];
	warnings?: EnrichmentError[];
	mergedWithItems?: number[];
	unmappedKeys?: string[];
	note?: string;
}

export function failedOutcome(
	objectType: ObjectType,
	identification: Identification | null,
	errors: EnrichmentError[],
): ItemOutcome {
	return { status: 'failed', applied: false, objectType, identification, fields: {}, errors };
}

/**
 * Outcomes of the items of one batch, from the per-object results (same order as `batch.objects`).
 * `successStatus` is `applied` for a sent batch and `valid` under "Validate Only".
 */
export function batchItemOutcomes(
	batch: Batch,
	results: readonly ObjectResult[],
	objectType: ObjectType,
	successStatus: 'applied' | 'valid',
): Map<number, ItemOutcome> {
	const outcomes = new Map<number, ItemOutcome>();
	batch.objects.forEach((object, position) => {
		const result = results[position];
		const fields: Record<string, WireValue> = {};
		for (const field of object.fields) fields[field.name] = field.value;
		const ok = result.errors.length === 0;
		for (const itemIndex of object.itemIndexes) {
			const outcome: ItemOutcome = {
				status: ok ? successStatus : 'failed',
				applied: ok && successStatus === 'applied',
				objectType,
				identification: object.identification,
				// each item gets its own copy: downstream nodes may change one item's JSON in place
				fields: { ...fields },
				errors: result.errors,
			};
			if (result.warnings.length > 0) outcome.warnings = result.warnings;
			if (object.itemIndexes.length > 1) outcome.mergedWithItems = object.itemIndexes.filter((other) => other !== itemIndex);
			outcomes.set(itemIndex, outcome);
		}
	});
	return outcomes;
}

export function describeFailure(itemIndex: number, outcome: ItemOutcome): string {
	const object = outcome.identification ? ` (${outcome.identification.name} = ${outcome.identification.value})` : '';
	const errors = outcome.errors.map((error) => `${error.code}: ${error.message}`).join('; ');
	return `Item ${itemIndex}${object}: ${errors}`;
}
