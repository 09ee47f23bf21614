/**
 * Streaming XXH64 (seed 0), the hash behind the Zstandard content checksum (RFC 8878 §3.1.1 stores the
 * low 32 bits of XXH64 of the decoded content).
 *
 * 64-bit values are pairs of int32 halves, so nothing is allocated (V8 allocates a heap BigInt per BigInt
 * operation, and collecting them cost more than the hashing). The low half of a 32×32-bit product is
 * `Math.imul`; its high half comes from the product as a double, which is within 2^11 of the exact
 * product, minus the exact low half: (p - low) / 2^32 is then within 2^-21 of the high half, which
 * adding 0.5 and truncating recovers exactly (`multiplyHigh`, written out in the stripe loop).
 */

/** In a `vm` context (Jest), every lookup of the global `Math` costs more than the multiply. */
const imul = Math.imul;

const PRIME1_HIGH = 0x9e3779b1;
const PRIME1_LOW = 0x85ebca87;
const PRIME2_HIGH = 0xc2b2ae3d;
const PRIME2_LOW = 0x27d4eb4f;
const PRIME3_HIGH = 0x165667b1;
const PRIME3_LOW = 0x9e3779f9;
const PRIME4_HIGH = 0x85ebca77;
const PRIME4_LOW = 0xc2b2ae63;
const PRIME5_HIGH = 0x27d4eb2f;
const PRIME5_LOW = 0x165667c5;
const TWO_TO_MINUS_32 = 2 ** -32;

const STRIPE = 32;
/** The lanes at the start, high and low halves: PRIME1 + PRIME2, PRIME2, 0, -PRIME1 (mod 2^64). */
const INITIAL_LANES = [0x60ea27ee, 0xadc0b5d6, PRIME2_HIGH, PRIME2_LOW, 0, 0, 0x61c8864e, 0x7a143579];
/** How far each lane is rotated before the lanes are summed into the hash. */
const LANE_ROTATIONS = [1, 7, 12, 18];

/** The upper 32 bits of the 64-bit product of the unsigned values of a and b. */
function multiplyHigh(a: number, b: number): number {
	return (((a >>> 0) * (b >>> 0) - (imul(a, b) >>> 0)) * TWO_TO_MINUS_32 + 0.5) | 0;
}

/** Where the helpers below leave their result. */
let resultHigh = 0;
let resultLow = 0;

/** (aHigh:aLow) * (bHigh:bLow) mod 2^64. */
function multiply(aHigh: number, aLow: number, bHigh: number, bLow: number): void {
	resultLow = imul(aLow, bLow);
	resultHigh = (multiplyHigh(aLow, bLow) + imul(aHigh, bLow) + imul(aLow, bHigh)) | 0;
}

/** (aHigh:aLow) + (bHigh:bLow) mod 2^64. */
function add(aHigh: number, aLow: number, bHigh: number, bLow: number): void {
	const low = (aLow + bLow) | 0;
	resultHigh = (aHigh + bHigh + (low >>> 0 < bLow >>> 0 ? 1 : 0)) | 0;
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

/** Runs the four lanes over the whole stripes of view[start, end). */
function consumeStripes(lanes: Int32Array, view: DataView, start: number, end: number): void {
	twoLanes(lanes, 0, view, start, end);
	twoLanes(lanes, 2, view, start, end);
}

/**
 * Runs lanes `lane` and `lane + 1` over the stripes of view[start, end): acc = rotl(acc + input * PRIME2,
 * 31) * PRIME1, written out on locals. Two independent lanes keep the CPU busy while one waits for its
 * products; four at once would no longer fit in the registers.
 */
function twoLanes(lanes: Int32Array, lane: number, view: DataView, start: number, end: number): void {
	let high1 = lanes[2 * lane];
	let low1 = lanes[2 * lane + 1];
	let high2 = lanes[2 * lane + 2];
	let low2 = lanes[2 * lane + 3];
	for (let position = start + 8 * lane; position < end; position += STRIPE) {
		let inputLow = view.getInt32(position, true);
		let productLow = imul(inputLow, PRIME2_LOW);
		let productHigh =
			(((((inputLow >>> 0) * PRIME2_LOW - (productLow >>> 0)) * TWO_TO_MINUS_32 + 0.5) | 0) +
				imul(view.getInt32(position + 4, true), PRIME2_LOW) +
				imul(inputLow, PRIME2_HIGH)) |
			0;
		let sumLow = (low1 + productLow) | 0;
		let sumHigh = (high1 + productHigh + (((low1 & productLow) | ((low1 | productLow) & ~sumLow)) >>> 31)) | 0;
		let rotatedLow = (sumLow << 31) | (sumHigh >>> 1);
		low1 = imul(rotatedLow, PRIME1_LOW);
		high1 =
			(((((rotatedLow >>> 0) * PRIME1_LOW - (low1 >>> 0)) * TWO_TO_MINUS_32 + 0.5) | 0) +
				imul((sumHigh << 31) | (sumLow >>> 1), PRIME1_LOW) +
				imul(rotatedLow, PRIME1_HIGH)) |
			0;

		inputLow = view.getInt32(position + 8, true);
		productLow = imul(inputLow, PRIME2_LOW);
		productHigh =
			(((((inputLow >>> 0) * PRIME2_LOW - (productLow >>> 0)) * TWO_TO_MINUS_32 + 0.5) | 0) +
				imul(view.getInt32(position + 12, true), PRIME2_LOW) +
				imul(inputLow, PRIME2_HIGH)) |
			0;
		sumLow = (low2 + productLow) | 0;
		sumHigh = (high2 + productHigh + (((low2 & productLow) | ((low2 | productLow) & ~sumLow)) >>> 31)) | 0;
		rotatedLow = (sumLow << 31) | (sumHigh >>> 1);
		low2 = imul(rotatedLow, PRIME1_LOW);
		high2 =
			(((((rotatedLow >>> 0) * PRIME1_LOW - (low2 >>> 0)) * TWO_TO_MINUS_32 + 0.5) | 0) +
				imul((sumHigh << 31) | (sumLow >>> 1), PRIME1_LOW) +
				imul(rotatedLow, PRIME1_HIGH)) |
			0;
	}
	lanes.set([high1, low1, high2, low2], 2 * lane);
}

export class Xxhash64 {
	/** The four accumulators, high and low halves: lane i is lanes[2i]:lanes[2i + 1]. */
	private readonly lanes = new Int32Array(8);
	/** Input not hashed yet: less than a stripe between calls of `update`. */
	private readonly pending = new Uint8Array(STRIPE);
	private readonly pendingView = new DataView(this.pending.buffer);
	private pendingLength = 0;
	private totalLength = 0;

	constructor() {
		this.reset();
	}

	reset(): void {
		this.lanes.set(INITIAL_LANES);
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
			consumeStripes(this.lanes, this.pendingView, 0, STRIPE);
			this.pendingLength = 0;
		}
		const stripesEnd = end - ((end - position) % STRIPE);
		if (stripesEnd > position) {
			consumeStripes(this.lanes, new DataView(data.buffer, data.byteOffset, data.byteLength), position, stripesEnd);
		}
		this.pending.set(data.subarray(stripesEnd, end));
		this.pendingLength = end - stripesEnd;
	}

	/** The 64-bit digest (unsigned halves) of everything passed to `update` since the last `reset`. */
	digest(): { high: number; low: number } {
		const lanes = this.lanes;
		if (this.totalLength >= STRIPE) {
			let high = 0;
			let low = 0;
			for (let lane = 0; lane < 4; lane++) {
				rotateLeft(lanes[2 * lane], lanes[2 * lane + 1], LANE_ROTATIONS[lane]);
				add(high, low, resultHigh, resultLow);
				high = resultHigh;
				low = resultLow;
			}
			for (let lane = 0; lane < 4; lane++) {
				mergeRound(high, low, lanes[2 * lane], lanes[2 * lane + 1]);
				high = resultHigh;
				low = resultLow;
			}
		} else {
			resultHigh = PRIME5_HIGH;
			resultLow = PRIME5_LOW;
		}
		add(resultHigh, resultLow, Math.floor(this.totalLength / 4294967296), this.totalLength | 0);
		let high = resultHigh;
		let low = resultLow;

		const tail = this.pendingView;
		const tailEnd = this.pendingLength;
		let position = 0;
		for (; position + 8 <= tailEnd; position += 8) {
			round(0, 0, tail.getInt32(position + 4, true), tail.getInt32(position, true));
			rotateLeft(high ^ resultHigh, low ^ resultLow, 27);
			multiply(resultHigh, resultLow, PRIME1_HIGH, PRIME1_LOW);
			add(resultHigh, resultLow, PRIME4_HIGH, PRIME4_LOW);
			high = resultHigh;
			low = resultLow;
		}
		if (position + 4 <= tailEnd) {
			multiply(0, tail.getInt32(position, true), PRIME1_HIGH, PRIME1_LOW);
			rotateLeft(high ^ resultHigh, low ^ resultLow, 23);
			multiply(resultHigh, resultLow, PRIME2_HIGH, PRIME2_LOW);
			add(resultHigh, resultLow, PRIME3_HIGH, PRIME3_LOW);
			high = resultHigh;
			low = resultLow;
			position += 4;
		}
		for (; position < tailEnd; position++) {
			multiply(0, tail.getUint8(position), PRIME5_HIGH, PRIME5_LOW);
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
}
