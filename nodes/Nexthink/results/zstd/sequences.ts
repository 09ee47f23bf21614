/**
 * The sequences section of a compressed block (RFC 8878 §3.1.1.3.2): its header (number of sequences,
 * symbol compression modes) and the three decoding tables, each predefined, RLE, FSE-compressed or
 * repeated from the previous block. The tables and repeat offsets persist across the blocks of a frame
 * (`SequenceState.startFrame` resets them).
 *
 * `decodeSequencesSection` then decodes the bitstream (sequenceDecoding.ts) and executes the sequences
 * into the window (sequenceExecution.ts).
 */

import { ZstdError } from './errors';
import { FseDistribution, FseTable, buildFseTable, readFseDistribution } from './fse';
import type { Literals } from './literals';
import { DecodedSequences, decodeSequences } from './sequenceDecoding';
import type { SequenceDecodingState } from './sequenceDecoding';
import { executeSequences } from './sequenceExecution';
import {
	LITERAL_LENGTH_CODES,
	MATCH_LENGTH_CODES,
	OFFSET_CODES,
	SequenceTable,
	fillRleSequenceTable,
	fillSequenceTable,
	predefinedSequenceTable,
} from './sequenceTables';
import type { SequenceCodes } from './sequenceTables';
import type { OutputWindow } from './window';

const MODE_PREDEFINED = 0;
const MODE_RLE = 1;
const MODE_FSE = 2;

const distribution = new FseDistribution();
const fseTable = new FseTable();

/** The table in use for one symbol type, and storage for tables read from the input. */
class TableSlot {
	current: SequenceTable | null = null;
	private readonly own = new SequenceTable();

	constructor(private readonly codes: SequenceCodes) {}

	/** Applies the mode for this block, reading a table description at data[start] if needed; returns the next index. */
	select(mode: number, data: Uint8Array, start: number, end: number, sourceOffset: number): number {
		const codes = this.codes;
		const errorOffset = sourceOffset + start;
		if (mode === MODE_PREDEFINED) {
			this.current = predefinedSequenceTable(codes);
			return start;
		}
		if (mode === MODE_RLE) {
			if (start >= end) throw new ZstdError(`${codes.name} RLE symbol is missing`, errorOffset);
			const code = data[start];
			if (code > codes.maxSymbol) throw new ZstdError(`${codes.name} code ${code} is out of range`, errorOffset);
			fillRleSequenceTable(this.own, code, codes);
			this.current = this.own;
			return start + 1;
		}
		if (mode === MODE_FSE) {
			const size = readFseDistribution(
				distribution,
				data,
				start,
				end,
				codes.maxSymbol,
				codes.maxAccuracyLog,
				sourceOffset,
			);
			buildFseTable(fseTable, distribution, errorOffset);
			fillSequenceTable(this.own, fseTable, codes);
			this.current = this.own;
			return start + size;
		}
		if (this.current === null) {
			throw new ZstdError(`${codes.name} table repeats a table the frame never defined`, errorOffset);
		}
		return start;
	}

	/** The table selected for the current block. */
	table(): SequenceTable {
		if (this.current === null) throw new Error('no sequence table selected');
		return this.current;
	}
}

export class SequenceState implements SequenceDecodingState {
	readonly literalLengths = new TableSlot(LITERAL_LENGTH_CODES);
	readonly offsets = new TableSlot(OFFSET_CODES);
	readonly matchLengths = new TableSlot(MATCH_LENGTH_CODES);
	repeatOffset1 = 1;
	repeatOffset2 = 4;
	repeatOffset3 = 8;
	readonly sequences = new DecodedSequences();

	startFrame(): void {
		this.literalLengths.current = null;
		this.offsets.current = null;
		this.matchLengths.current = null;
		this.repeatOffset1 = 1;
		this.repeatOffset2 = 4;
		this.repeatOffset3 = 8;
	}
}

/**
 * Decodes data[start, end) (the rest of the block after the literals section) into the window at
 * `window.position`, using `literals`; writes at most `maxBlockSize` bytes and advances `window.position`.
 * `sourceOffset` is the input offset of data[0].
 */
export function decodeSequencesSection(
	state: SequenceState,
	literals: Literals,
	data: Uint8Array,
	start: number,
	end: number,
	window: OutputWindow,
	maxBlockSize: number,
	sourceOffset: number,
): void {
	const errorOffset = sourceOffset + start;
	if (start >= end) throw new ZstdError('sequences section is missing', errorOffset);
	let position = start;
	let count = data[position++];
	if (count >= 128) {
		if (count === 255) {
			count = data[position] + (data[position + 1] << 8) + 0x7f00;
			position += 2;
		} else {
			count = ((count - 128) << 8) + data[position];
			position += 1;
		}
	}
	const sequences = state.sequences;
	sequences.reset(count);
	if (count > 0) {
		if (position >= end) throw new ZstdError('sequences section header is truncated', errorOffset);
		const modes = data[position++];
		if ((modes & 3) !== 0) throw new ZstdError('reserved bits of the sequence modes are set', errorOffset);
		position = state.literalLengths.select(modes >>> 6, data, position, end, sourceOffset);
		position = state.offsets.select((modes >>> 4) & 3, data, position, end, sourceOffset);
		position = state.matchLengths.select((modes >>> 2) & 3, data, position, end, sourceOffset);
		decodeSequences(
			state,
			state.literalLengths.table(),
			state.offsets.table(),
			state.matchLengths.table(),
			sequences,
			data,
			position,
			end,
			sourceOffset,
		);
	} else if (position !== end) {
		throw new ZstdError('a block without sequences has extra bytes after its sequences header', errorOffset);
	}
	executeSequences(sequences, literals, window, maxBlockSize, errorOffset);
}
