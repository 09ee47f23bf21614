/**
 * Errors attached to an item's outcome. `source` tells whether the node found the problem before
 * sending (`node`) or the API reported it (`api`); codes from the API are passed through unchanged.
 */
import { InputError } from '../shared/inputError';
import { failureOf } from '../shared/nodeErrors';

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
