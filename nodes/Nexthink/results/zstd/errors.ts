/**
 * The single error type of the Zstandard decoder.
 *
 * Contract: every failure caused by the input (corruption, truncation, unsupported features, limits)
 * surfaces as a `ZstdError`; `offset` is the byte offset, counted from the first byte ever pushed into
 * the decoder, of the structure that could not be decoded (a frame header, a block, a bitstream...).
 */
export class ZstdError extends Error {
	readonly offset: number;

	constructor(reason: string, offset: number) {
		super(`Cannot decode Zstandard data at byte ${offset}: ${reason}`);
		this.name = 'ZstdError';
		this.offset = offset;
	}
}
