/**
 * The input checks every Actions resource shares (no resource imports): the error of one item's
 * input, naming its field; how a wrong value is shown; Request Timeout.
 */

import { requestTimeoutMs } from '../../shared/requestTimeout';

/** A problem with one item's input; the message names the field. */
export class RunInputError extends Error {
	constructor(
		message: string,
		readonly field: string,
	) {
		super(message);
		this.name = 'RunInputError';
	}
}

/** A value in an input error: quoted text (cut at 60 characters), or its kind. */
export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `"${value.slice(0, 60)}"`;
	return `${typeof value} ${String(value)}`;
}

/** Request Timeout in milliseconds (shared/requestTimeout.ts), its complaint as this item's error. */
export function checkRequestTimeout(raw: unknown, defaultSeconds: number): number {
	let problem: string;
	try {
		return requestTimeoutMs(raw, defaultSeconds);
	} catch (error) {
		problem = (error as Error).message;
	}
	throw new RunInputError(problem, 'Request Timeout (Seconds)');
}
