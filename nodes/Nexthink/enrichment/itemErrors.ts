/**
 * Errors attached to an item's outcome. `source` tells whether the node found the problem before
 * sending (`node`) or the API reported it (`api`); codes from the API are passed through unchanged.
 */
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

/** Thrown by the pure item-preparation code; caught per item and turned into that item's outcome. */
export class ItemInputError extends Error {
	constructor(
		readonly code: InputErrorCode,
		message: string,
	) {
		super(message);
		this.name = 'ItemInputError';
	}

	toEnrichmentError(): EnrichmentError {
		return { code: this.code, message: this.message, source: 'node' };
	}
}
