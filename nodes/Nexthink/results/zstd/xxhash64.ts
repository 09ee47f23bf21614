/**
 * Streaming XXH64 (seed 0), the hash behind the Zstandard content checksum (RFC 8878 §3.1.1 stores the
 * low 32 bits of XXH64 of the decoded content).
 *
 * 64-bit values are pairs of 32-bit halves held as int32 bit patterns, so everything is integer
 * arithmetic: no BigInt, no allocation. The stripe loop inlines the round on locals; the finalization
 * (once per frame) uses small helpers that leave their result in `resultHigh`/`resultLow`.
 */

/**
 * A module-level alias: where module code runs in a `vm` context (Jest does that), every lookup of a
 * global such as `Math` goes through the context's interceptors and costs more than the multiply.
 */
const imul = Math.imul;

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

const PRIME1_LOW_0 = PRIME1_LOW & 0xffff;
const PRIME1_LOW_1 = PRIME1_LOW >>> 16;
const PRIME2_LOW_0 = PRIME2_LOW & 0xffff;
const PRIME2_LOW_1 = PRIME2_LOW >>> 16;

const STRIPE = 32;

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
	resultHigh =
		(multiplyHigh(aLow, bLow & 0xffff, bLow >>> 16) + imul(aHigh, bLow) + imul(aLow, bHigh)) | 0;
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
	/** The four accumulators as (high, low) pairs. */
	private readonly lanes = new Int32Array(8);
	private readonly pending = new Uint8Array(STRIPE);
	private readonly pendingView = new DataView(this.pending.buffer);
	private pendingLength = 0;
	private totalLength = 0;

	constructor() {
		this.reset();
	}

	reset(): void {
		const lanes = this.lanes;
		add(PRIME1_HIGH, PRIME1_LOW, PRIME2_HIGH, PRIME2_LOW);
		lanes[0] = resultHigh;
		lanes[1] = resultLow;
		lanes[2] = PRIME2_HIGH;
		lanes[3] = PRIME2_LOW;
		lanes[4] = 0;
		lanes[5] = 0;
		// 0 - PRIME1 = ~PRIME1 + 1
		add(~PRIME1_HIGH, ~PRIME1_LOW, 0, 1);
		lanes[6] = resultHigh;
		lanes[7] = resultLow;
		this.pendingLength = 0;
		this.totalLength = 0;
	}

	update(data: Uint8Array, start: number, end: number): void {
		this.totalLength += end - start;
		let position = start;
		if (this.pendingLength > 0) {
			const take = Math.min(STRIPE - this.pendingLength, end - position);
			this.pending.set(data.subarray(position, position + take), this.pendingLength);
			this.pendingLength += take;
			position += take;
			if (this.pendingLength < STRIPE) return;
			this.consumeStripes(this.pendingView, 0, STRIPE);
			this.pendingLength = 0;
		}
		const stripesEnd = position + Math.floor((end - position) / STRIPE) * STRIPE;
		if (stripesEnd > position) {
			this.consumeStripes(new DataView(data.buffer, data.byteOffset, data.byteLength), position, stripesEnd);
		}
		if (stripesEnd < end) {
			this.pending.set(data.subarray(stripesEnd, end), 0);
			this.pendingLength = end - stripesEnd;
		}
	}

	/** The 64-bit digest (unsigned halves) of everything passed to `update` since the last `reset`. */
	digest(): { high: number; low: number } {
		const lanes = this.lanes;
		if (this.totalLength >= STRIPE) {
			rotateLeft(lanes[0], lanes[1], 1);
			let high = resultHigh;
			let low = resultLow;
			rotateLeft(lanes[2], lanes[3], 7);
			add(high, low, resultHigh, resultLow);
			high = resultHigh;
			low = resultLow;
			rotateLeft(lanes[4], lanes[5], 12);
			add(high, low, resultHigh, resultLow);
			high = resultHigh;
			low = resultLow;
			rotateLeft(lanes[6], lanes[7], 18);
			add(high, low, resultHigh, resultLow);
			for (let lane = 0; lane < 8; lane += 2) {
				mergeRound(resultHigh, resultLow, lanes[lane], lanes[lane + 1]);
			}
		} else {
			resultHigh = PRIME5_HIGH;
			resultLow = PRIME5_LOW;
		}
		add(resultHigh, resultLow, Math.floor(this.totalLength / 4294967296) | 0, this.totalLength | 0);
		let high = resultHigh;
		let low = resultLow;

		const tail = this.pending;
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
	 * Runs the four lanes over the whole stripes in view[start, end). Lanes are independent, so each runs
	 * alone over its 8 bytes of every stripe, with the round inlined on locals.
	 */
	private consumeStripes(view: DataView, start: number, end: number): void {
		const lanes = this.lanes;
		for (let lane = 0; lane < 4; lane++) {
			let accHigh = lanes[2 * lane];
			let accLow = lanes[2 * lane + 1];
			for (let position = start + 8 * lane; position < end; position += STRIPE) {
				const inputLow = view.getInt32(position, true);
				const inputHigh = view.getInt32(position + 4, true);
				// sum = acc + input * PRIME2
				const productHigh =
					multiplyHigh(inputLow, PRIME2_LOW_0, PRIME2_LOW_1) +
					imul(inputHigh, PRIME2_LOW) +
					imul(inputLow, PRIME2_HIGH);
				const low = (accLow + imul(inputLow, PRIME2_LOW)) | 0;
				const high = (accHigh + productHigh + (low >>> 0 < accLow >>> 0 ? 1 : 0)) | 0;
				// acc = rotl(sum, 31) * PRIME1
				const rotatedHigh = (high << 31) | (low >>> 1);
				const rotatedLow = (low << 31) | (high >>> 1);
				accHigh =
					(multiplyHigh(rotatedLow, PRIME1_LOW_0, PRIME1_LOW_1) +
						imul(rotatedHigh, PRIME1_LOW) +
						imul(rotatedLow, PRIME1_HIGH)) |
					0;
				accLow = imul(rotatedLow, PRIME1_LOW);
			}
			lanes[2 * lane] = accHigh;
			lanes[2 * lane + 1] = accLow;
		}
	}
}
