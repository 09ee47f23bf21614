/**
 * Bounds on what one results file may expand to while it is decompressed and parsed, so that a small
 * hostile file fails with a clear error instead of exhausting memory. Where each is checked, the
 * defaults and why: docs/decisions.md, "Results file limits".
 */
import { InputError } from '../shared/inputError';
import { numberOf } from '../shared/parameterValues';

/** 1 MB as the options count it: 1,048,576 bytes (or characters, for fields and rows). */
export const MB = 1024 * 1024;

export interface ResultLimits {
	/** Decompressed bytes a file may have; 0 = no limit. */
	maxDecompressedBytes: number;
	/** Decompressed bytes per downloaded byte; 0 = no limit. Checked beyond `RATIO_FLOOR_BYTES` only. */
	maxCompressionRatio: number;
	/** Characters one CSV field may have; 0 = no limit. */
	maxFieldChars: number;
	/** Characters one CSV record (row or header) may have, separators included; 0 = no limit. */
	maxRecordChars: number;
}

export const DEFAULT_RESULT_LIMITS: Readonly<ResultLimits> = Object.freeze({
	maxDecompressedBytes: 2048 * MB,
	maxCompressionRatio: 100,
	maxFieldChars: 16 * MB,
	maxRecordChars: 64 * MB,
});

/** The compression ratio is only checked beyond this much decompressed output. */
export const RATIO_FLOOR_BYTES = 16 * MB;

/** Most columns a header may have; fixed (docs/decisions.md, "Results file limits"). */
export const MAX_COLUMNS = 10_000;

/** The option that sets each limit (Export node options), for messages saying how to raise it. */
export const LIMIT_OPTION_LABELS: Record<keyof ResultLimits, string> = {
	maxDecompressedBytes: 'Max Decompressed Size (MB)',
	maxCompressionRatio: 'Max Compression Ratio',
	maxFieldChars: 'Max Field Size (MB)',
	maxRecordChars: 'Max Row Size (MB)',
};

/** A results file went past one of the limits. The message says which, its value and how to raise it. */
export class ResultLimitError extends Error {
	readonly limit: keyof ResultLimits | 'columns';
	/** The limit's value: bytes, characters, a ratio or a column count. */
	readonly value: number;

	constructor(limit: keyof ResultLimits | 'columns', value: number, what: string) {
		const raise =
			limit === 'columns'
				? 'This limit is fixed: a Nexthink export has far fewer columns, so the file is not a genuine export.'
				: `If the file is genuine, raise "${LIMIT_OPTION_LABELS[limit]}" in the node's options (0 = no limit).`;
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

/** Reads user-given limits, each as `limitFromOption` does. */
export function resultLimitsFromOptions(options: Partial<Record<'maxDecompressedMB' | 'maxCompressionRatio' | 'maxFieldMB' | 'maxRowMB', unknown>>): ResultLimits {
	return {
		maxDecompressedBytes: limitFromOption(options.maxDecompressedMB, LIMIT_OPTION_LABELS.maxDecompressedBytes, DEFAULT_RESULT_LIMITS.maxDecompressedBytes, MB),
		maxCompressionRatio: limitFromOption(options.maxCompressionRatio, LIMIT_OPTION_LABELS.maxCompressionRatio, DEFAULT_RESULT_LIMITS.maxCompressionRatio, 1),
		maxFieldChars: limitFromOption(options.maxFieldMB, LIMIT_OPTION_LABELS.maxFieldChars, DEFAULT_RESULT_LIMITS.maxFieldChars, MB),
		maxRecordChars: limitFromOption(options.maxRowMB, LIMIT_OPTION_LABELS.maxRecordChars, DEFAULT_RESULT_LIMITS.maxRecordChars, MB),
	};
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
