/**
 * Streaming XXH64 (seed 0), the hash behind the Zstandard content checksum (RFC 8878 §3.1.1 stores the
 * low 32 bits of XXH64 of the decoded content).
 *
 * The stripe loop, where the time goes, runs on 64-bit BigInt lanes (`BigInt.asUintN(64, …)`, which V8
 * compiles to 64-bit instructions) read from a `BigUint64Array`: the input in place where it is 8-aligned
 * (the decoder's window keeps it so), else an aligned scratch copy (`DataView` BigInt loads and
 * `BigInt(number)` are slow calls on Node 20 and 22). The lanes live in another `BigUint64Array` (see
 * `consumeStripes`): no allocation per word, 2-3× faster than int32 halves (docs/decisions.md, "Zstandard
 * decoding speed, fourth step"). Set-up and finalization use int32 halves, leaving results in
 * `resultHigh` and `resultLow`: Node 20's optimising compiler aborts the process
 * ("RepresentationChangerError ... UnsignedBigInt64") on BigInt values merging from branches.
 */

/** In a `vm` context (Jest), every lookup of a global such as `Math` costs more than the multiply. */
const imul = Math.imul;
const asUintN = BigInt.asUintN;

const PRIME1_HIGH = 0x9e3779b1 | 0;
const PRIME1_LOW = 0x85ebca87 | 0;
const PRIME2_HIGH = 0xc2b2ae3d | 0;
const PRIME2_LOW = 0x27d4eb4f | 0;
const PRIME3_HIGH = 0x165667b1 | 0;
const PRIME3_LOW = 0x9e3779f9 | 0;
const PRIME4_HIGH = 0x85ebca77 | 0;
const PRIME4_LOW = 0xc2b2ae63 | 0;
const PRIME5_HIGH = 0x27d4eb2f | 0;
const PRIME5_LOW = 0x165667c5 | 0;

const PRIME1 = 0x9e3779b185ebca87n;
const PRIME2 = 0xc2b2ae3d27d4eb4fn;

const STRIPE = 32;
/** How far each lane is rotated before the lanes are summed into the hash. */
const LANE_ROTATIONS = [1, 7, 12, 18];
/** Input copied into the scratch buffer at a time; a whole number of stripes. */
const SCRATCH_SIZE = 64 * 1024;

/** Whether typed arrays store bytes little-endian, as XXH64 reads them (true on every platform n8n runs on). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Where the high and low 32 bits of a `BigUint64Array` element lie, read in the platform's byte order. */
const HIGH_HALF = LITTLE_ENDIAN ? 1 : 0;
const LOW_HALF = 1 - HIGH_HALF;

/**
 * Upper 32 bits of the unsigned 64-bit product of a and b = b1 * 2^16 + b0, from 16-bit limbs: every
 * partial product is below 2^32, so `imul` yields its exact bit pattern.
 */
function multiplyHigh(a: number, b0: number, b1: number): number {
	const a0 = a & 0xffff;
	const a1 = a >>> 16;
	const cross1 = imul(a1, b0);
	const cross2 = imul(a0, b1);
	const middle = (imul(a0, b0) >>> 16) + (cross1 & 0xffff) + (cross2 & 0xffff);
	return (imul(a1, b1) + (cross1 >>> 16) + (cross2 >>> 16) + (middle >>> 16)) | 0;
}

function readInt32(data: Uint8Array, index: number): number {
	return data[index] | (data[index + 1] << 8) | (data[index + 2] << 16) | (data[index + 3] << 24);
}

let resultHigh = 0;
let resultLow = 0;

/** (aHigh:aLow) * (bHigh:bLow) mod 2^64. */
function multiply(aHigh: number, aLow: number, bHigh: number, bLow: number): void {
	resultLow = imul(aLow, bLow);
	resultHigh = (multiplyHigh(aLow, bLow & 0xffff, bLow >>> 16) + imul(aHigh, bLow) + imul(aLow, bHigh)) | 0;
}

/** (aHigh:aLow) + (bHigh:bLow) mod 2^64. */
function add(aHigh: number, aLow: number, bHigh: number, bLow: number): void {
	const low = (aLow + bLow) | 0;
	resultHigh = (aHigh + bHigh + (low >>> 0 < aLow >>> 0 ? 1 : 0)) | 0;
	resultLow = low;
}

/** Rotate left by 0 < bits < 32. */
function rotateLeft(high: number, low: number, bits: number): void {
	resultHigh = (high << bits) | (low >>> (32 - bits));
	resultLow = (low << bits) | (high >>> (32 - bits));
}

/** XXH64 round: rotl(acc + input * PRIME2, 31) * PRIME1. */
function round(accHigh: number, accLow: number, inputHigh: number, inputLow: number): void {
	multiply(inputHigh, inputLow, PRIME2_HIGH, PRIME2_LOW);
	add(accHigh, accLow, resultHigh, resultLow);
	rotateLeft(resultHigh, resultLow, 31);
	multiply(resultHigh, resultLow, PRIME1_HIGH, PRIME1_LOW);
}

/** hash = (hash ^ round(0, lane)) * PRIME1 + PRIME4. */
function mergeRound(hashHigh: number, hashLow: number, laneHigh: number, laneLow: number): void {
	round(0, 0, laneHigh, laneLow);
	multiply(hashHigh ^ resultHigh, hashLow ^ resultLow, PRIME1_HIGH, PRIME1_LOW);
	add(resultHigh, resultLow, PRIME4_HIGH, PRIME4_LOW);
}

export class Xxhash64 {
	/** The four accumulators. */
	private readonly lanes = new BigUint64Array(4);
	/** The accumulators as 32-bit halves, for set-up and finalization. */
	private readonly laneHalves = new Int32Array(this.lanes.buffer);
	/** Input not hashed yet: less than a stripe between calls of `update`. */
	private readonly scratch = new Uint8Array(SCRATCH_SIZE);
	private readonly scratchWords = new BigUint64Array(this.scratch.buffer);
	/** The buffer last hashed in place, and its 8-byte words. */
	private inPlaceBuffer: ArrayBufferLike | undefined;
	private inPlaceWords: BigUint64Array<ArrayBufferLike> = new BigUint64Array(0);
	private pendingLength = 0;
	private totalLength = 0;

	constructor() {
		this.reset();
	}

	reset(): void {
		add(PRIME1_HIGH, PRIME1_LOW, PRIME2_HIGH, PRIME2_LOW);
		const initial = [resultHigh, resultLow, PRIME2_HIGH, PRIME2_LOW, 0, 0, 0, 0];
		// 0 - PRIME1 = ~PRIME1 + 1
		add(~PRIME1_HIGH, ~PRIME1_LOW, 0, 1);
		initial[6] = resultHigh;
		initial[7] = resultLow;
		for (let lane = 0; lane < 4; lane++) {
			this.laneHalves[2 * lane + HIGH_HALF] = initial[2 * lane];
			this.laneHalves[2 * lane + LOW_HALF] = initial[2 * lane + 1];
		}
		this.pendingLength = 0;
		this.totalLength = 0;
	}

	/**
	 * Hashes data[start, end). Where the next stripe starts at an 8-aligned address (as in the decoder's
	 * window, see window.ts), whole stripes are read in place; the rest goes through the scratch copy.
	 */
	update(data: Uint8Array, start: number, end: number): void {
		this.totalLength += end - start;
		const scratch = this.scratch;
		let position = start;
		if (LITTLE_ENDIAN) {
			const pending = this.pendingLength;
			if (pending > 0) {
				// Complete the pending stripe first, so that the next one starts at `position`.
				const take = Math.min(STRIPE - pending, end - position);
				scratch.set(data.subarray(position, position + take), pending);
				position += take;
				if (pending + take < STRIPE) {
					this.pendingLength = pending + take;
					return;
				}
				this.consumeStripes(this.scratchWords, 0, STRIPE / 8);
				this.pendingLength = 0;
			}
			const address = data.byteOffset + position;
			const stripesEnd = end - ((end - position) % STRIPE);
			if (address % 8 === 0 && stripesEnd > position) {
				if (data.buffer !== this.inPlaceBuffer) {
					this.inPlaceBuffer = data.buffer;
					this.inPlaceWords = new BigUint64Array(data.buffer, 0, Math.floor(data.buffer.byteLength / 8));
				}
				this.consumeStripes(this.inPlaceWords, address / 8, (address + stripesEnd - position) / 8);
				position = stripesEnd;
			}
		}
		while (position < end) {
			const take = Math.min(SCRATCH_SIZE - this.pendingLength, end - position);
			scratch.set(data.subarray(position, position + take), this.pendingLength);
			position += take;
			const filled = this.pendingLength + take;
			const stripesEnd = filled - (filled % STRIPE);
			if (stripesEnd > 0) {
				if (!LITTLE_ENDIAN) for (let word = 0; word < stripesEnd; word += 8) scratch.subarray(word, word + 8).reverse();
				this.consumeStripes(this.scratchWords, 0, stripesEnd / 8);
				scratch.copyWithin(0, stripesEnd, filled);
			}
			this.pendingLength = filled - stripesEnd;
		}
	}

	/** The 64-bit digest (unsigned halves) of everything passed to `update` since the last `reset`. */
	digest(): { high: number; low: number } {
		const halves = this.laneHalves;
		if (this.totalLength >= STRIPE) {
			let high = 0;
			let low = 0;
			for (let lane = 0; lane < 4; lane++) {
				rotateLeft(halves[2 * lane + HIGH_HALF], halves[2 * lane + LOW_HALF], LANE_ROTATIONS[lane]);
				add(high, low, resultHigh, resultLow);
				high = resultHigh;
				low = resultLow;
			}
			for (let lane = 0; lane < 4; lane++) {
				mergeRound(high, low, halves[2 * lane + HIGH_HALF], halves[2 * lane + LOW_HALF]);
				high = resultHigh;
				low = resultLow;
			}
		} else {
			resultHigh = PRIME5_HIGH;
			resultLow = PRIME5_LOW;
		}
		add(resultHigh, resultLow, Math.floor(this.totalLength / 4294967296) | 0, this.totalLength | 0);
		let high = resultHigh;
		let low = resultLow;

		const tail = this.scratch;
		const tailEnd = this.pendingLength;
		let position = 0;
		for (; position + 8 <= tailEnd; position += 8) {
			round(0, 0, readInt32(tail, position + 4), readInt32(tail, position));
			rotateLeft(high ^ resultHigh, low ^ resultLow, 27);
			multiply(resultHigh, resultLow, PRIME1_HIGH, PRIME1_LOW);
			add(resultHigh, resultLow, PRIME4_HIGH, PRIME4_LOW);
			high = resultHigh;
			low = resultLow;
		}
		if (position + 4 <= tailEnd) {
			multiply(0, readInt32(tail, position), PRIME1_HIGH, PRIME1_LOW);
			rotateLeft(high ^ resultHigh, low ^ resultLow, 23);
			multiply(resultHigh, resultLow, PRIME2_HIGH, PRIME2_LOW);
			add(resultHigh, resultLow, PRIME3_HIGH, PRIME3_LOW);
			high = resultHigh;
			low = resultLow;
			position += 4;
		}
		for (; position < tailEnd; position++) {
			multiply(0, tail[position], PRIME5_HIGH, PRIME5_LOW);
			rotateLeft(high ^ resultHigh, low ^ resultLow, 11);
			multiply(resultHigh, resultLow, PRIME1_HIGH, PRIME1_LOW);
			high = resultHigh;
			low = resultLow;
		}

		// Avalanche: h ^= h >> 33; h *= PRIME2; h ^= h >> 29; h *= PRIME3; h ^= h >> 32.
		multiply(high, low ^ (high >>> 1), PRIME2_HIGH, PRIME2_LOW);
		high = resultHigh ^ (resultHigh >>> 29);
		low = resultLow ^ ((resultLow >>> 29) | (resultHigh << 3));
		multiply(high, low, PRIME3_HIGH, PRIME3_LOW);
		return { high: resultHigh >>> 0, low: (resultLow ^ resultHigh) >>> 0 };
	}

	/**
	 * Runs the four lanes over the stripes in words[from, to). The lanes stay in their `BigUint64Array`
	 * across iterations: BigInt locals carried from one iteration to the next are boxed on the heap at every
	 * turn (an allocation per lane and stripe on Node 20 and 24), where a typed-array element is loaded and
	 * stored as a plain 64-bit word.
	 */
	private consumeStripes(words: BigUint64Array<ArrayBufferLike>, from: number, to: number): void {
		const lanes = this.lanes;
		for (let word = from; word < to; word += 4) {
			// acc = rotl(acc + input * PRIME2, 31) * PRIME1
			const lane1 = asUintN(64, lanes[0] + words[word] * PRIME2);
			lanes[0] = asUintN(64, ((lane1 << 31n) | (lane1 >> 33n)) * PRIME1);
			const lane2 = asUintN(64, lanes[1] + words[word + 1] * PRIME2);
			lanes[1] = asUintN(64, ((lane2 << 31n) | (lane2 >> 33n)) * PRIME1);
			const lane3 = asUintN(64, lanes[2] + words[word + 2] * PRIME2);
			lanes[2] = asUintN(64, ((lane3 << 31n) | (lane3 >> 33n)) * PRIME1);
			const lane4 = asUintN(64, lanes[3] + words[word + 3] * PRIME2);
			lanes[3] = asUintN(64, ((lane4 << 31n) | (lane4 >> 33n)) * PRIME1);
		}
	}
}
