/**
 * Bounds on what one results file may expand to while it is decompressed and parsed, so that a small
 * hostile file fails with a clear error instead of exhausting memory. Where each is checked, the
 * defaults and why: docs/decisions.md, "Results file limits".
 */
import { InputError } from '../shared/inputError';
import { numberOf } from '../shared/parameterValues';

/** 1 MB as the options count it: 1,048,576 bytes (or characters, for fields and rows). */
export const MB = 1024 * 1024;

/**
 * The limits (0 = no limit each), with the Export option that sets one (its label, for messages saying
 * how to raise it, and its name), the default and the option's unit (MB for sizes).
 */
const LIMITS = {
	/** Decompressed bytes a file may have. */
	maxDecompressedBytes: { label: 'Max Decompressed Size (MB)', option: 'maxDecompressedMB', fallback: 2048 * MB, scale: MB },
	/** Decompressed bytes per downloaded byte; checked beyond `RATIO_FLOOR_BYTES` only. */
	maxCompressionRatio: { label: 'Max Compression Ratio', option: 'maxCompressionRatio', fallback: 100, scale: 1 },
	/** Characters one CSV field may have. */
	maxFieldChars: { label: 'Max Field Size (MB)', option: 'maxFieldMB', fallback: 16 * MB, scale: MB },
	/** Characters one CSV record (row or header) may have, separators included. */
	maxRecordChars: { label: 'Max Row Size (MB)', option: 'maxRowMB', fallback: 64 * MB, scale: MB },
};

export type ResultLimits = Record<keyof typeof LIMITS, number>;

const limitEntries = Object.entries(LIMITS) as Array<[keyof ResultLimits, (typeof LIMITS)[keyof ResultLimits]]>;

export const DEFAULT_RESULT_LIMITS: Readonly<ResultLimits> = Object.freeze(
	Object.fromEntries(limitEntries.map(([name, limit]) => [name, limit.fallback])) as ResultLimits,
);

/** The compression ratio is only checked beyond this much decompressed output. */
export const RATIO_FLOOR_BYTES = 16 * MB;

/** Most columns a header may have; fixed (docs/decisions.md, "Results file limits"). */
export const MAX_COLUMNS = 10_000;

/** A results file went past one of the limits. The message says which, its value and how to raise it. */
export class ResultLimitError extends Error {
	readonly limit: keyof ResultLimits | 'columns';
	/** The limit's value: bytes, characters, a ratio or a column count. */
	readonly value: number;

	constructor(limit: keyof ResultLimits | 'columns', value: number, what: string) {
		const raise =
			limit === 'columns'
				? 'This limit is fixed: a Nexthink export has far fewer columns, so the file is not a genuine export.'
				: `If the file is genuine, raise "${LIMITS[limit].label}" in the node's options (0 = no limit).`;
		super(`${what}. ${raise}`);
		this.name = 'ResultLimitError';
		this.limit = limit;
		this.value = value;
	}
}

/** "16 MB", "1.5 MB", "512 KB": sizes for messages. */
export function describeSize(bytes: number): string {
	if (bytes >= MB) return `${formatNumber(bytes / MB)} MB`;
	if (bytes >= 1024) return `${formatNumber(bytes / 1024)} KB`;
	return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

function formatNumber(value: number): string {
	return (Math.round(value * 10) / 10).toLocaleString('en-US');
}

/** Reads user-given limits (the Export options named in `LIMITS`), each as `limitFromOption` does. */
export function resultLimitsFromOptions(options: Record<string, unknown>): ResultLimits {
	const read = limitEntries.map(([name, { label, option, fallback, scale }]) => [name, limitFromOption(options[option], label, fallback, scale)]);
	return Object.fromEntries(read) as ResultLimits;
}

/**
 * One limit option: `undefined`, `null` or '' keep `fallback`; 0 means no limit; otherwise a positive
 * number times `scale` (MB for sizes), at least 1. Throws an input error naming the option for anything else.
 */
export function limitFromOption(raw: unknown, label: string, fallback: number, scale: number): number {
	const value = numberOf(raw);
	if (value === undefined) return fallback;
	if (!(Number.isFinite(value) && value >= 0)) throw new InputError(`${label} must be a number, 0 (no limit) or more.`, label);
	if (value === 0) return 0;
	return scale === 1 ? value : Math.max(1, Math.floor(value * scale));
}
