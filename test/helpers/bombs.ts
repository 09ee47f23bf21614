/**
 * Decompression bombs for tests: small files that inflate to huge fields, rows or text, built
 * without ever holding the inflated content.
 */
import { execFileSync } from 'node:child_process';
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';

/**
 * One gzip member holding `head` then `copies` times `unit`, built without compressing it all: each
 * part is raw deflate ended with a full flush (byte-aligned, no final block, no back-references
 * into earlier parts), so the same compressed bytes can be repeated; an empty final block and the
 * gzip trailer (CRC-32 and size) close it. One member, because Node 22 and later refuse bytes after
 * the first one.
 */
export function gzipBomb(unit: Buffer, copies: number, head = 'device.name,device.note\nPC-1,'): Buffer {
	const headBytes = Buffer.from(head);
	const part = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
	const unitPart = part(unit);
	let crc = crc32(headBytes);
	for (let copy = 0; copy < copies; copy++) crc = crc32(unit, crc);
	const trailer = Buffer.alloc(8);
	trailer.writeUInt32LE(crc >>> 0, 0);
	trailer.writeUInt32LE((headBytes.length + unit.length * copies) % 2 ** 32, 4);
	const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
	return Buffer.concat([header, part(headBytes), ...Array.from({ length: copies }, () => unitPart), Buffer.from([0x03, 0x00]), trailer]);
}

/** The same with Zstandard frames (a zstd file may hold several frames), made with the zstd CLI. */
export function zstdBomb(unit: Buffer, copies: number, head = 'device.name,device.note\nPC-1,'): Buffer {
	const frame = execFileSync('zstd', ['-q', '-c', '-19'], { input: unit, maxBuffer: 1 << 26 });
	const first = execFileSync('zstd', ['-q', '-c'], { input: Buffer.from(head) });
	return Buffer.concat([first, ...Array.from({ length: copies }, () => frame)]);
}
