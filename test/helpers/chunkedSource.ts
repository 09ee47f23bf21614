// A byte source for the results pipeline's tests: bytes delivered in chunks, as a network response
// body delivers them.

export interface SourceLog {
	pulled: number;
	closed: boolean;
}

/** `bytes` as an async source of `size`-byte chunks, logging how far it was read and whether it was closed. */
export async function* chunked(bytes: Uint8Array, size: number, log: SourceLog = { pulled: 0, closed: false }): AsyncGenerator<Uint8Array> {
	try {
		for (let offset = 0; offset < bytes.length; offset += size) {
			log.pulled++;
			// A fresh copy per chunk, as a network stream delivers it.
			yield Uint8Array.from(bytes.subarray(offset, offset + size));
		}
	} finally {
		log.closed = true;
	}
}
