/**
 * Compressed blocks (RFC 8878 §3.1.1.3): a literals section followed by a sequences section, executed
 * into the output window. Holds the entropy state that carries over between the blocks of a frame
 * (Huffman tree, sequence tables, repeat offsets).
 */

import { Literals, decodeLiteralsSection } from './literals';
import { SequenceState, decodeSequencesSection } from './sequences';
import type { OutputWindow } from './window';

export class CompressedBlockDecoder {
	private readonly literals = new Literals();
	private readonly sequences = new SequenceState();

	startFrame(maxBlockSize: number): void {
		this.literals.startFrame(maxBlockSize);
		this.sequences.startFrame();
	}

	/**
	 * Decodes the block content data[start, end) to `window.position` onwards (the caller reserved
	 * `maxBlockSize` bytes there). `sourceOffset` is the input offset of data[0].
	 */
	decode(
		data: Uint8Array,
		start: number,
		end: number,
		window: OutputWindow,
		maxBlockSize: number,
		sourceOffset: number,
	): void {
		const sequencesStart = decodeLiteralsSection(this.literals, data, start, end, maxBlockSize, sourceOffset);
		decodeSequencesSection(
			this.sequences,
			this.literals,
			data,
			sequencesStart,
			end,
			window,
			maxBlockSize,
			sourceOffset,
		);
	}
}
