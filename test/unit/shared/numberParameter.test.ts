/**
 * The one conversion of a number parameter (shared/parameterValues.ts): numbers and numeric text are
 * numbers, absent values are absent, and everything JavaScript's `Number()` would quietly turn into a
 * number (a boolean, a list, blanks, hexadecimal text) is NaN, which every caller's range check
 * refuses. That every number parameter of every node goes through it is shown by
 * test/integration/numberParameters.test.ts.
 */
import { numberOf, readWholeNumber } from '../../../nodes/Nexthink/shared/parameterValues';

describe('numberOf', () => {
	it.each([
		[5, 5],
		[0, 0],
		[-1.5, -1.5],
		['5', 5],
		[' 7 ', 7],
		['0.25', 0.25],
		['.5', 0.5],
		['1e3', 1000],
		['+2', 2],
		['Infinity', Number.POSITIVE_INFINITY],
		[Number.NaN, Number.NaN],
	])('%j is %j', (raw, expected) => {
		expect(numberOf(raw)).toBe(expected);
	});

	it.each([undefined, null, ''])('%j is absent', (raw) => {
		expect(numberOf(raw)).toBeUndefined();
	});

	it.each([true, false, [5], [], {}, ' ', 'ten', '0x10', '0b1', '1,000', '5 minutes', '١٢'])('%j is not a number', (raw) => {
		expect(numberOf(raw)).toBeNaN();
	});
});

describe('readWholeNumber (e.g. Device → Delete\'s counts)', () => {
	it.each([
		[undefined, 500],
		['7', 7],
		[100, 100],
	])('reads %p as %p', (raw, expected) => {
		expect(readWholeNumber(raw, 'Devices per Request', 500, 1, 100)).toBe(expected);
	});

	it.each([0, 101, 1.5, 'x', -1])('refuses %p', (raw) => {
		expect(() => readWholeNumber(raw, 'Devices per Request', 100, 1, 100)).toThrow('Devices per Request must be a whole number from 1 to 100');
	});
});
