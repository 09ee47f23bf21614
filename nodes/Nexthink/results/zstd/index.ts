/**
 * Dependency-free Zstandard decompression (RFC 8878), public entry point.
 *
 * `ZstdDecoder` decodes incrementally: push compressed chunks as they arrive, take decoded chunks as they
 * are ready. `decompressZstd` is the one-shot convenience for small inputs. Dictionaries are not
 * supported (frames that need one fail with a `ZstdError`); empty input decodes to empty output.
 */

import { ZstdDecoder } from './decoder';
import type { ZstdDecoderOptions } from './decoder';

export { ZstdDecoder } from './decoder';
export type { ZstdDecoderOptions } from './decoder';
export { ZstdError } from './errors';

/** The first four bytes of every Zstandard frame (0xFD2FB528, little-endian). */
export const ZSTD_MAGIC: readonly number[] = Object.freeze([0x28, 0xb5, 0x2f, 0xfd]);

export function decompressZstd(data: Uint8Array, options?: ZstdDecoderOptions): Uint8Array {
	const decoder = new ZstdDecoder(options);
	const chunks = [...decoder.push(data), ...decoder.end()];
	if (chunks.length === 1) return chunks[0];
	const result = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
	let position = 0;
	for (const chunk of chunks) {
		result.set(chunk, position);
		position += chunk.length;
	}
	return result;
}
