/**
 * Decoding tables of literal lengths, offsets and match lengths (RFC 8878 §3.1.1.3.2.1): predefined
 * (§3.1.1.3.2.2), RLE, FSE-compressed or repeated from the previous block. They are FSE tables whose
 * symbols are expanded into what the sequence decoder needs per state: the value's baseline and extra
 * bits (§3.1.1.3.2.1.1 and the offset formula), and how to reach the next state.
 */

import { ZstdError } from './errors';
import { FseDistribution, FseTable, MAX_ACCURACY_LOG, buildFseTable, readFseDistribution } from './fse';

/**
 * How one symbol type maps codes to values, and its limits. Each code's baseline follows the previous
 * one's range: baseline[i + 1] = baseline[i] + 2^extraBits[i].
 */
function codes(
	name: string,
	maxAccuracyLog: number,
	firstBaseline: number,
	extraBits: number[],
	predefinedAccuracyLog: number,
	predefinedCounts: number[],
) {
	const baseline = new Uint32Array(extraBits.length);
	baseline[0] = firstBaseline;
	for (let code = 1; code < extraBits.length; code++) baseline[code] = baseline[code - 1] + 2 ** extraBits[code - 1];
	const maxSymbol = extraBits.length - 1;
	const extra = Uint8Array.from(extraBits);
	return { name, maxSymbol, maxAccuracyLog, baseline, extraBits: extra, predefinedAccuracyLog, predefinedCounts };
}

export const LITERAL_LENGTH_CODES = codes(
	'literal length',
	9,
	0,
	[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
	6,
	[4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1],
);

export const MATCH_LENGTH_CODES = codes(
	'match length',
	9,
	3,
	[
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3,
		3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	],
	6,
	[
		1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
	],
);

/**
 * Offset code n stands for the value 2^n plus n extra bits. The format allows codes up to 31, but code 31
 * means offsets of 2 GiB and more, beyond any window this decoder accepts, and would not fit the int32
 * tables; it is rejected as out of range.
 */
export const OFFSET_CODES = codes(
	'offset',
	8,
	1,
	Array.from({ length: 31 }, (_, code) => code),
	5,
	[1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1],
);

/** In the order of the modes byte of the sequences section header (§3.1.1.3.2.1). */
const SYMBOL_TYPES = [LITERAL_LENGTH_CODES, OFFSET_CODES, MATCH_LENGTH_CODES];

const MODE_PREDEFINED = 0;
const MODE_RLE = 1;
const MODE_FSE = 2;

const distribution = new FseDistribution();
const fseTable = new FseTable();
const predefinedTables = SYMBOL_TYPES.map((type) => {
	distribution.accuracyLog = type.predefinedAccuracyLog;
	distribution.symbolCount = type.predefinedCounts.length;
	distribution.counts.set(type.predefinedCounts);
	const table = new FseTable();
	buildFseTable(table, distribution, 0);
	return table;
});

/**
 * The tables of the three symbol types side by side, each in its own region of `2^MAX_ACCURACY_LOG`
 * states (literal lengths, offsets, match lengths), so a state is an index into both arrays and the
 * sequence loop holds two arrays instead of six. Per state: `transitions` packs the next state's baseline
 * as an index (bits 0-15), the number of next-state bits (bits 16-23) and the number of extra value bits
 * (bits 24-31); `valueBases` holds the value's baseline. They persist across the blocks of a frame.
 */
export class SequenceTables {
	readonly transitions = new Int32Array(3 << MAX_ACCURACY_LOG);
	readonly valueBases = new Int32Array(3 << MAX_ACCURACY_LOG);
	/** Per symbol type, the accuracy log of its table; -1 until the frame defines one. */
	readonly accuracyLogs = [-1, -1, -1];

	startFrame(): void {
		this.accuracyLogs.fill(-1);
	}

	/**
	 * Applies `mode` to symbol type `type` (0-2) for this block, reading a table description at data[start]
	 * if needed; returns the index after it. `sourceOffset` is the input offset of data[0].
	 */
	select(type: number, mode: number, data: Uint8Array, start: number, end: number, sourceOffset: number): number {
		const codes = SYMBOL_TYPES[type];
		const region = type << MAX_ACCURACY_LOG;
		const errorOffset = sourceOffset + start;
		if (mode === MODE_RLE) {
			if (start >= end) throw new ZstdError(`${codes.name} RLE symbol is missing`, errorOffset);
			const code = data[start];
			if (code > codes.maxSymbol) throw new ZstdError(`${codes.name} code ${code} is out of range`, errorOffset);
			this.transitions[region] = region | (codes.extraBits[code] << 24);
			this.valueBases[region] = codes.baseline[code];
			this.accuracyLogs[type] = 0;
			return start + 1;
		}
		let table = predefinedTables[type];
		let next = start;
		if (mode === MODE_FSE) {
			next += readFseDistribution(distribution, data, start, end, codes.maxSymbol, codes.maxAccuracyLog, sourceOffset);
			buildFseTable(fseTable, distribution, errorOffset);
			table = fseTable;
		} else if (mode !== MODE_PREDEFINED) {
			if (this.accuracyLogs[type] < 0) {
				throw new ZstdError(`${codes.name} table repeats a table the frame never defined`, errorOffset);
			}
			return start;
		}
		for (let state = 0; state < 1 << table.accuracyLog; state++) {
			const code = table.symbol[state];
			this.transitions[region + state] =
				(region + table.baseline[state]) | (table.numBits[state] << 16) | (codes.extraBits[code] << 24);
			this.valueBases[region + state] = codes.baseline[code];
		}
		this.accuracyLogs[type] = table.accuracyLog;
		return next;
	}
}
