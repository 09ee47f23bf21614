import { convertCsvValue } from '../../../nodes/Nexthink/results/valueTyping';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

describe('convertCsvValue', () => {
	it.each([
		['0', 0],
		['42', 42],
		['-7', -7],
		['1.5', 1.5],
		['-0.25', -0.25],
		['0.30000000000000004', 0.30000000000000004],
		['9007199254740991', 9007199254740991],
		['-9007199254740991', -9007199254740991],
		['1.5e-7', 1.5e-7],
		['123456.789', 123456.789],
		['12345678901234.5', 12345678901234.5],
		['1234567890123456', 1234567890123456],
		['17179869184', 17179869184],
		['0.000001', 0.000001],
		['1e-7', 1e-7],
		['-1.5e-7', -1.5e-7],
	])('turns %j into the number %p', (text, expected) => {
		expect(convertCsvValue(text)).toBe(expected);
	});

	it.each([
		['007', 'a leading zero'],
		['00', 'a leading zero'],
		['1.50', 'a trailing zero'],
		['5.', 'a trailing dot'],
		['.5', 'no leading digit'],
		['-0', 'negative zero prints as 0'],
		['+5', 'a plus sign'],
		['1e5', 'exponent notation that prints differently'],
		['1e21', 'exponent notation that prints differently'],
		['1e+21', 'an integer beyond the safe range'],
		['9007199254740992', 'an integer beyond the safe range'],
		['9007199254740993', 'an integer that would be rounded'],
		['123456789012345678901', 'an integer that would be rounded'],
		['0x10', 'hexadecimal'],
		['1_000', 'a numeric separator'],
		['NaN', 'not a number'],
		['Infinity', 'not finite'],
		['-Infinity', 'not finite'],
		[' 1', 'a leading space'],
		['1 ', 'a trailing space'],
		['1,5', 'a decimal comma'],
		['TRUE', 'upper-case boolean'],
		['False', 'capitalised boolean'],
		['yes', 'not a boolean'],
		['null', 'the word null'],
		['2024-05-01T10:00:00Z', 'a timestamp'],
		['10.0.0.1', 'an IPv4 address'],
		['::ffff:10.1.2.3', 'an IPv6 address'],
		['[22631, 4169]', 'a list'],
		['3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'a UUID starting with a digit'],
		['-', 'a lone minus'],
		['-0.0', 'negative zero with a fraction'],
		['0.0000001', 'prints in exponent form'],
		['1E5', 'upper-case exponent that prints differently'],
		['3e2504e0-4f89', 'a UUID that starts like an exponent'],
		['1.2.3', 'a version number'],
	])('keeps %j a string (%s)', (text) => {
		expect(convertCsvValue(text)).toBe(text);
	});

	it('turns exactly true and false into booleans', () => {
		expect(convertCsvValue('true')).toBe(true);
		expect(convertCsvValue('false')).toBe(false);
	});

	it('turns an empty field into null', () => {
		expect(convertCsvValue('')).toBeNull();
	});

	it('keeps a value that is only whitespace', () => {
		expect(convertCsvValue(' ')).toBe(' ');
	});
});

describe('convertCsvValue against the round-trip rule itself', () => {
	/** The rule spelled out directly, without the fast path for plain decimals. */
	function reference(text: string): string | number {
		const number = Number(text);
		if (!Number.isFinite(number) || String(number) !== text) return text;
		if (Number.isInteger(number) && !Number.isSafeInteger(number)) return text;
		return number;
	}

	it('agrees on many generated number-like strings', () => {
		// xorshift32, deterministic
		let state = 0x9e3779b9;
		const random = (limit: number): number => {
			state ^= state << 13;
			state ^= state >>> 17;
			state ^= state << 5;
			return (state >>> 0) % limit;
		};
		const digits = (count: number): string => Array.from({ length: count }, () => String(random(10))).join('');
		const disagreements: string[] = [];
		for (let run = 0; run < 200_000; run++) {
			let text = random(3) === 0 ? '-' : '';
			text += random(4) === 0 ? '0' : digits(1 + random(19));
			if (random(2) === 0) text += `.${random(3) === 0 ? '0'.repeat(random(9)) : ''}${digits(random(19))}`;
			if (random(8) === 0) text += `e${random(2) === 0 ? '-' : random(2) === 0 ? '+' : ''}${digits(1 + random(2))}`;
			const converted = convertCsvValue(text);
			if (!Object.is(converted, reference(text))) disagreements.push(text);
		}
		expect(disagreements).toEqual([]);
	}, DATA_WORK_TIMEOUT_MS);
});
