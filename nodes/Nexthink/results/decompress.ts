/**
 * Turns the bytes of a downloaded results file into the bytes of the CSV inside it. The file's magic
 * bytes choose the decoder, not the declared compression (docs/decisions.md, "Results files").
 * Corrupt or truncated data ends the stream with a `DecompressionError`, never with silently partial
 * output; errors of the source pass through unchanged. With `limits`, a file past one fails with a
 * `ResultLimitError` (where and when: docs/decisions.md, "Results file limits").
 */

import { describeSize, RATIO_FLOOR_BYTES, ResultLimitError, type ResultLimits } from './limits';
import { ZSTD_MAGIC, ZstdDecoder, ZstdError } from './zstd';

/** How a results file is compressed: the values of the export API's `compression` parameter. */
export type Compression = 'NONE' | 'GZIP' | 'ZSTD';

const COMPRESSION_NAMES: Record<Compression, string> = { NONE: 'plain text', GZIP: 'gzip', ZSTD: 'Zstandard' };

export class DecompressionError extends Error {
	/** The format the data was being decoded as. */
	readonly compression: Compression;

	constructor(compression: Compression, reason: string, cause?: unknown) {
		super(`Could not decompress the results file as ${COMPRESSION_NAMES[compression]}: ${reason}`, { cause });
		this.name = 'DecompressionError';
		this.compression = compression;
	}
}

/** The magic numbers; `firstByteMask` because zstd skippable frames have 16 differing in the low nibble. */
const SIGNATURES: ReadonlyArray<{ compression: Compression; bytes: readonly number[]; firstByteMask: number }> = [
	{ compression: 'GZIP', bytes: [0x1f, 0x8b], firstByteMask: 0xff },
	{ compression: 'ZSTD', bytes: ZSTD_MAGIC, firstByteMask: 0xff },
	// RFC 8878 §3.1.2: a skippable frame (magic 0x184D2A5?, little-endian) may precede the first frame.
	{ compression: 'ZSTD', bytes: [0x50, 0x2a, 0x4d, 0x18], firstByteMask: 0xf0 },
];

/**
 * The compression the first bytes of a file show: `GZIP` or `ZSTD` for their magic numbers, `NONE`
 * when the bytes cannot start either, `undefined` when too few bytes arrived to tell.
 */
export function detectCompression(firstBytes: Uint8Array): Compression | undefined {
	let undecided = false;
	for (const signature of SIGNATURES) {
		const compared = Math.min(firstBytes.length, signature.bytes.length);
		let matches = compared > 0 && (firstBytes[0] & signature.firstByteMask) === signature.bytes[0];
		for (let index = 1; matches && index < compared; index++) {
			matches = firstBytes[index] === signature.bytes[index];
		}
		if (matches && compared === signature.bytes.length) return signature.compression;
		if (matches || compared === 0) undecided = true;
	}
	return undecided ? undefined : 'NONE';
}

export interface DecompressOptions {
	/** Bounds on the output (0 in a field = no limit); unbounded when absent. */
	limits?: Pick<ResultLimits, 'maxDecompressedBytes' | 'maxCompressionRatio'>;
	/** Decompressed bytes below which the ratio is not checked; default `RATIO_FLOOR_BYTES` (tests lower it). */
	ratioFloorBytes?: number;
	/**
	 * For a caller that wants them: the bytes taken from the source (`compressed`), counted as they are
	 * read, and the compression the file turned out to have, set before the first chunk is yielded.
	 */
	counted?: Counted;
}

/** Output the zstd decoder may produce before the limits are checked again. */
const ZSTD_PORTION_BYTES = 1024 * 1024;

export interface Counted {
	compressed: number;
	decompressed: number;
	compression?: Compression;
}

/**
 * The decompressed content of `source`. Stopping the iteration early stops reading `source`
 * (its iterator's `return()` is called) without decoding the rest. The source must not reuse a
 * chunk's memory after yielding it (Node streams and `fetch` bodies do not).
 */
export async function* decompressChunks(
	source: AsyncIterable<Uint8Array>,
	declared: Compression,
	options: DecompressOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
	const iterator = source[Symbol.asyncIterator]();
	try {
		const counted = options.counted ?? { compressed: 0, decompressed: 0 };
		const head = await readHead(iterator, counted);
		const compression = head.compression ?? fallbackCompression(declared, head.chunks);
		counted.compression = compression;
		const chunks = replay(head.chunks, iterator, counted);
		const output = compression === 'GZIP' ? gunzip(chunks) : compression === 'ZSTD' ? unzstd(chunks) : chunks;
		if (options.limits === undefined) yield* output;
		else yield* bounded(output, compression, counted, options.limits, options.ratioFloorBytes ?? RATIO_FLOOR_BYTES);
	} finally {
		await iterator.return?.();
	}
}

/** Reads chunks until the magic bytes are decided (one chunk, almost always); no compression when the source ended first. */
async function readHead(iterator: AsyncIterator<Uint8Array>, counted: Counted): Promise<{ chunks: Uint8Array[]; compression?: Compression }> {
	const chunks: Uint8Array[] = [];
	/** The file's first bytes, as many as the longest magic number has (four decide every signature). */
	const firstBytes: number[] = [];
	for (;;) {
		const step = await iterator.next();
		if (step.done === true) return { chunks };
		counted.compressed += step.value.length;
		if (step.value.length === 0) continue;
		chunks.push(step.value);
		firstBytes.push(...step.value.subarray(0, 4 - firstBytes.length));
		const compression = detectCompression(Uint8Array.from(firstBytes));
		if (compression !== undefined) return { chunks, compression };
	}
}

/** For a file that ended before its magic number could be read in full. */
function fallbackCompression(declared: Compression, chunks: Uint8Array[]): Compression {
	if (declared === 'NONE') return 'NONE';
	const length = chunks.reduce((total, chunk) => total + chunk.length, 0);
	const reason = length === 0 ? 'the file is empty' : `the file ends after ${length} byte${length === 1 ? '' : 's'}`;
	throw new DecompressionError(declared, `${reason} (truncated download?)`);
}

/** The chunks read ahead (counted already), then the rest of the source, counted. Leaves closing the source to the caller. */
async function* replay(head: Uint8Array[], iterator: AsyncIterator<Uint8Array>, counted: Counted): AsyncGenerator<Uint8Array, void, undefined> {
	yield* head;
	for (;;) {
		const step = await iterator.next();
		if (step.done === true) return;
		counted.compressed += step.value.length;
		yield step.value;
	}
}

/**
 * The output, failing as soon as it passes a limit. The downloaded count includes the few chunks a
 * decoder has read ahead, which only ever makes the ratio look smaller (kinder to genuine files).
 */
async function* bounded(
	output: AsyncIterable<Uint8Array>,
	compression: Compression,
	counted: Counted,
	limits: Pick<ResultLimits, 'maxDecompressedBytes' | 'maxCompressionRatio'>,
	ratioFloorBytes: number,
): AsyncGenerator<Uint8Array, void, undefined> {
	const maxBytes = limits.maxDecompressedBytes > 0 ? limits.maxDecompressedBytes : Number.POSITIVE_INFINITY;
	const maxRatio = limits.maxCompressionRatio > 0 && compression !== 'NONE' ? limits.maxCompressionRatio : Number.POSITIVE_INFINITY;
	for await (const chunk of output) {
		counted.decompressed += chunk.length;
		if (counted.decompressed > maxBytes) {
			throw new ResultLimitError(
				'maxDecompressedBytes',
				maxBytes,
				compression === 'NONE'
					? `The results file is larger than ${describeSize(maxBytes)} (the decompressed size limit)`
					: `The results file decompresses to more than ${describeSize(maxBytes)} (the decompressed size limit)`,
			);
		}
		if (counted.decompressed > ratioFloorBytes && counted.decompressed > maxRatio * counted.compressed) {
			throw new ResultLimitError(
				'maxCompressionRatio',
				maxRatio,
				`The results file decompresses to more than ${maxRatio} times its downloaded size (${describeSize(counted.decompressed)} from ${describeSize(counted.compressed)} so far; the compression ratio limit)`,
			);
		}
		yield chunk;
	}
}

/** Written chunks not consumed yet: Node's DecompressionStream has no effective write backpressure, so this bound keeps a fast download from being read ahead into memory. */
const MAX_WRITES_IN_FLIGHT = 4;

interface FeedState {
	/** Set by the reading side when it stops before the end. */
	stopping: boolean;
	sourceFailed: boolean;
	sourceError: unknown;
}

/**
 * Gunzips with the global `DecompressionStream`, writing a chunk while earlier ones are still read.
 * To stop early it writes no more and leaves the stream to the garbage collector, neither cancelled
 * (on Node 20 an uncaught "Controller is already closed"), aborted (waits forever on backpressure)
 * nor drained (seconds for a bomb): docs/decisions.md, "Stopping a gzip download early".
 */
async function* gunzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
	const stream = new DecompressionStream('gzip');
	const writer = stream.writable.getWriter();
	const reader = stream.readable.getReader();
	const state: FeedState = { stopping: false, sourceFailed: false, sourceError: undefined };
	const feeding = feed(chunks, writer, state);
	let finished = false;
	try {
		for (;;) {
			const step = await reader.read().catch((error: unknown) => {
				finished = true;
				// A failed source ends the input early, so its error shows up here as truncated data.
				throw state.sourceFailed ? state.sourceError : new DecompressionError('GZIP', describeGzipError(error), error);
			});
			if (step.done) break;
			yield step.value;
		}
		finished = true;
	} finally {
		state.stopping = true;
		if (finished) await feeding;
		else reader.releaseLock();
	}
	if (state.sourceFailed) throw state.sourceError;
}

/** Writes the source's chunks; an error of the source ends them, and is kept in `state` for the reader. */
async function feed(chunks: AsyncIterable<Uint8Array>, writer: WritableStreamDefaultWriter<Uint8Array>, state: FeedState): Promise<void> {
	let streamFailed = false;
	const markFailed = (): void => {
		streamFailed = true;
	};
	const inFlight: Array<Promise<void>> = [];
	try {
		for await (const chunk of chunks) {
			if (inFlight.length === MAX_WRITES_IN_FLIGHT) await inFlight.shift();
			// A failed stream rejects every write; the reader reports why.
			if (streamFailed || state.stopping) break;
			inFlight.push(writer.write(chunk).then(undefined, markFailed));
		}
	} catch (error) {
		state.sourceFailed = true;
		state.sourceError = error;
	}
	await writer.close().catch(markFailed);
}

function describeGzipError(error: unknown): string {
	// How Node 20 and 22+ report a truncated file or a second member: docs/decisions.md, "Results files".
	// Fields are read, not `instanceof` tested: Node's errors may come from another realm (e.g. jest).
	const fields = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; code?: unknown; cause?: { message?: unknown } };
	const message = typeof fields.message === 'string' ? fields.message : '';
	const causeMessage = typeof fields.cause?.message === 'string' ? fields.cause.message : '';
	if (fields.code === 'Z_BUF_ERROR' || message === 'unexpected end of file' || causeMessage === 'unexpected end of file') {
		return 'the compressed data ends too early (truncated download?)';
	}
	if (fields.code === 'ERR_TRAILING_JUNK_AFTER_STREAM_END') {
		return 'there are bytes after the end of the gzip data (another gzip member or other data), which the gzip decoder of Node.js 22 and later does not read';
	}
	return message || causeMessage || String(fields.code ?? error);
}

/** Zstandard through `ZstdDecoder`, in portions; its `ZstdError` becomes a `DecompressionError`, the source's errors pass unchanged. */
async function* unzstd(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
	const decoder = new ZstdDecoder();
	let failure: unknown;
	try {
		for await (const chunk of chunks) {
			for (const portion of decoder.pushInPortions(chunk, ZSTD_PORTION_BYTES)) yield* portion;
		}
		yield* decoder.end();
		return;
	} catch (error) {
		failure = error;
	}
	throw failure instanceof ZstdError ? new DecompressionError('ZSTD', failure.message, failure) : failure;
}
