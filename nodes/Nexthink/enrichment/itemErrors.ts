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

export type InputErrorCode = (typeof INPUT_ERROR_CODES)[keyof typeof INPUT_ERROR_CODES];

/**
 * What an item's checks threw, as that item's outcome error: an input error (shared/inputError.ts,
 * thrown by the pure item-preparation code with one of INPUT_ERROR_CODES) keeps its code; anything
 * else (an expression that fails to evaluate) is a PARAMETER_ERROR.
 */
export function enrichmentErrorOf(error: unknown): EnrichmentError {
	const code = error instanceof InputError && error.code !== undefined ? error.code : 'PARAMETER_ERROR';
	return { code, message: failureOf(error).message, source: 'node' };
}
