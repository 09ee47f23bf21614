/**
 * Byte copies for sequence execution (RFC 8878 §3.1.1.4), tuned for the short copies that dominate:
 * 8 bytes per step through DataViews, the built-in `copyWithin`/`set` only for long runs where their call
 * overhead pays off.
 */

/** From this length on, the built-in bulk copies are faster than the 8-byte loop. */
const BULK_COPY = 64;

/**
 * Copies `length` bytes from out[source] to out[target] in increasing order, so when the source overlaps
 * the target from below the copied bytes repeat with period `target - source` (an LZ77 match).
 */
export function copyMatch(out: Uint8Array, view: DataView, target: number, source: number, length: number): void {
	const distance = target - source;
	if (distance >= 8 || distance < 0) {
		// Each 8-byte step reads only bytes that are final: they lie 8 or more bytes behind the target,
		// or ahead of everything written so far.
		if (length >= BULK_COPY && (distance >= length || distance < 0)) {
			out.copyWithin(target, source, source + length);
			return;
		}
		let i = 0;
		for (; i + 8 <= length; i += 8) {
			const low = view.getInt32(source + i, true);
			const high = view.getInt32(source + i + 4, true);
			view.setInt32(target + i, low, true);
			view.setInt32(target + i + 4, high, true);
		}
		for (; i < length; i++) out[target + i] = out[source + i];
		return;
	}
	if (length >= BULK_COPY) {
		// A short period repeats: every pass copies all bytes written so far, doubling the run.
		let copied = 0;
		while (copied < length) {
			const chunk = Math.min(length - copied, target + copied - source);
			out.copyWithin(target + copied, source, source + chunk);
			copied += chunk;
		}
		return;
	}
	for (let i = 0; i < length; i++) out[target + i] = out[source + i];
}

/** Copies `length` bytes from one buffer to another (never the same memory). */
export function copyBetween(
	to: Uint8Array,
	toView: DataView,
	target: number,
	from: Uint8Array,
	fromView: DataView,
	source: number,
	length: number,
): void {
	if (length >= BULK_COPY) {
		to.set(from.subarray(source, source + length), target);
		return;
	}
	let i = 0;
	for (; i + 8 <= length; i += 8) {
		const low = fromView.getInt32(source + i, true);
		const high = fromView.getInt32(source + i + 4, true);
		toView.setInt32(target + i, low, true);
		toView.setInt32(target + i + 4, high, true);
	}
	for (; i < length; i++) to[target + i] = from[source + i];
}
