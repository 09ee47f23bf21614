/**
 * The "convert types" option: turns a CSV field into the JSON value it unambiguously stands for,
 * never changing what the user sees (a number only when it prints back as the very same text, the
 * exact words `true` and `false`, empty → null): docs/decisions.md, "Results files" ("Convert Types").
 */

export type CsvValue = string | number | boolean | null;

/** `charCodeAt` through one call site: Node 20 stops inlining one that saw more than four kinds of string (docs/benchmarks.md). */
const charCodeAt = String.prototype.charCodeAt;

function codeAt(text: string, index: number): number {
	return charCodeAt.call(text, index);
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const MINUS = 45;
const DOT = 46;
const LOWER_E = 101;

export function convertCsvValue(value: string): CsvValue {
	if (value === '') return null;
	const first = codeAt(value, 0);
	if ((first >= DIGIT_0 && first <= DIGIT_9) || first === MINUS) return toNumber(value);
	if (value === 'true') return true;
	if (value === 'false') return false;
	return value;
}

/**
 * Decimal digits that any double reproduces exactly (DBL_DIG): a canonical decimal with at most this
 * many digits converts to a number that prints back as the same text.
 */
const EXACT_DIGITS = 15;

/** "0." followed by more zeros than this prints in exponent form (0.0000001 → 1e-7). */
const MAX_LEADING_FRACTION_ZEROS = 5;

/**
 * The number `text` spells if it prints back identically, else `text`. Plain decimals up to 15
 * digits (the common case: counts, sizes, percentages) are recognised by their syntax alone,
 * which spares printing the number again; everything else that may be a number takes the
 * definitive round-trip test.
 */
function toNumber(text: string): number | string {
	const length = text.length;
	const integerStart = codeAt(text, 0) === MINUS ? 1 : 0;
	let index = integerStart;
	while (index < length && isDigit(codeAt(text, index))) index++;
	const integerDigits = index - integerStart;
	if (integerDigits === 0) return text;
	const leadingZero = codeAt(text, integerStart) === DIGIT_0;
	if (leadingZero && integerDigits > 1) return text;
	if (index === length) {
		if (leadingZero && integerStart === 1) return text; // -0 prints as 0
		return integerDigits <= EXACT_DIGITS ? Number(text) : roundTripOrText(text);
	}
	if (codeAt(text, index) !== DOT) return mayBeExponent(text, index) ? roundTripOrText(text) : text;
	const fractionStart = ++index;
	while (index < length && isDigit(codeAt(text, index))) index++;
	const fractionDigits = index - fractionStart;
	if (index < length) return mayBeExponent(text, index) ? roundTripOrText(text) : text;
	if (fractionDigits === 0 || codeAt(text, length - 1) === DIGIT_0) return text; // 5. and 1.50
	let digits = integerDigits + fractionDigits;
	if (leadingZero) {
		let zeros = 0;
		while (codeAt(text, fractionStart + zeros) === DIGIT_0) zeros++;
		if (zeros > MAX_LEADING_FRACTION_ZEROS) return roundTripOrText(text);
		digits -= 1 + zeros;
	}
	return digits <= EXACT_DIGITS ? Number(text) : roundTripOrText(text);
}

function isDigit(code: number): boolean {
	return code >= DIGIT_0 && code <= DIGIT_9;
}

function mayBeExponent(text: string, index: number): boolean {
	return (codeAt(text, index) | 0x20) === LOWER_E; // e or E
}

/** The definitive rule: a finite number that prints back as `text`, and no integer beyond the safe range. */
function roundTripOrText(text: string): number | string {
	const number = Number(text);
	if (!Number.isFinite(number) || String(number) !== text) return text;
	if (Number.isInteger(number) && !Number.isSafeInteger(number)) return text;
	return number;
}
