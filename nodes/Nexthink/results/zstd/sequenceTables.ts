/**
 * Decoding tables for the three sequence symbol types (RFC 8878 §3.1.1.3.2.1): literal lengths, match
 * lengths and offsets.
 *
 * `SequenceTables` holds FSE tables whose symbols are already expanded into what the sequence decoder
 * needs per state: the value's baseline and extra-bit count (from the code tables of §3.1.1.3.2.1.1 and
 * the offset formula), and how to reach the next state.
 */

import { FseDistribution, FseTable, MAX_ACCURACY_LOG, buildFseTable } from './fse';

/** How one symbol type maps codes to values, and its limits. */
export interface SequenceCodes {
	readonly name: string;
	readonly maxSymbol: number;
	readonly maxAccuracyLog: number;
	readonly baseline: Uint32Array;
	readonly extraBits: Uint8Array;
	readonly predefinedAccuracyLog: number;
	readonly predefinedCounts: readonly number[];
}

const LITERAL_LENGTH_BASELINES = [
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024,
	2048, 4096, 8192, 16384, 32768, 65536,
];
const LITERAL_LENGTH_BITS = [
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
];
const MATCH_LENGTH_BASELINES = [
	3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
	34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
];
const MATCH_LENGTH_BITS = [
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3,
	3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
];
/**
 * Offset code n stands for the value 2^n plus n extra bits. The format allows codes up to 31, but code 31
 * means offsets of 2 GiB and more, beyond any window this decoder accepts, and would not fit the int32
 * tables; it is rejected as out of range.
 */
const MAX_OFFSET_CODE = 30;
const OFFSET_BASELINES = Array.from({ length: MAX_OFFSET_CODE + 1 }, (_, code) => 2 ** code);
const OFFSET_BITS = Array.from({ length: MAX_OFFSET_CODE + 1 }, (_, code) => code);

export const LITERAL_LENGTH_CODES: SequenceCodes = {
	name: 'literal length',
	maxSymbol: 35,
	maxAccuracyLog: 9,
	baseline: Uint32Array.from(LITERAL_LENGTH_BASELINES),
	extraBits: Uint8Array.from(LITERAL_LENGTH_BITS),
	predefinedAccuracyLog: 6,
	predefinedCounts: [
		4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1,
	],
};

export const MATCH_LENGTH_CODES: SequenceCodes = {
	name: 'match length',
	maxSymbol: 52,
	maxAccuracyLog: 9,
	baseline: Uint32Array.from(MATCH_LENGTH_BASELINES),
	extraBits: Uint8Array.from(MATCH_LENGTH_BITS),
	predefinedAccuracyLog: 6,
	predefinedCounts: [
		1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
	],
};

export const OFFSET_CODES: SequenceCodes = {
	name: 'offset',
	maxSymbol: MAX_OFFSET_CODE,
	maxAccuracyLog: 8,
	baseline: Uint32Array.from(OFFSET_BASELINES),
	extraBits: Uint8Array.from(OFFSET_BITS),
	predefinedAccuracyLog: 5,
	predefinedCounts: [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1],
};

/**
 * The decoding tables of the three symbol types side by side, each in its own region of
 * `2^MAX_ACCURACY_LOG` states, so a state is an index into both arrays and the sequence loop holds two
 * arrays instead of six. Per state: `transitions` packs the next state's baseline as an index (bits 0-15),
 * the number of next-state bits (bits 16-23) and the number of extra value bits (bits 24-31); `valueBases`
 * holds the value's baseline.
 */
export class SequenceTables {
	readonly transitions = new Int32Array(3 << MAX_ACCURACY_LOG);
	readonly valueBases = new Int32Array(3 << MAX_ACCURACY_LOG);

	/** Expands a built FSE table into the region at `region`, mapping each state's symbol through `codes`. */
	fill(region: number, fse: FseTable, codes: SequenceCodes): void {
		for (let state = 0; state < 1 << fse.accuracyLog; state++) {
			const code = fse.symbol[state];
			this.set(region + state, region + fse.baseline[state], fse.numBits[state], code, codes);
		}
	}

	/** RLE mode: a single state that always decodes `code`. */
	set(state: number, nextBase: number, nextBits: number, code: number, codes: SequenceCodes): void {
		this.transitions[state] = nextBase | (nextBits << 16) | (codes.extraBits[code] << 24);
		this.valueBases[state] = codes.baseline[code];
	}
}

const predefinedTables = new Map<SequenceCodes, FseTable>();

/** The FSE table of a symbol type's predefined distribution (§3.1.1.3.2.2), built on first use. */
export function predefinedFseTable(codes: SequenceCodes): FseTable {
	let table = predefinedTables.get(codes);
	if (table === undefined) {
		const distribution = new FseDistribution();
		distribution.accuracyLog = codes.predefinedAccuracyLog;
		distribution.symbolCount = codes.predefinedCounts.length;
		distribution.counts.set(codes.predefinedCounts);
		table = new FseTable();
		buildFseTable(table, distribution, 0);
		predefinedTables.set(codes, table);
	}
	return table;
}
