/**
 * Which fields a tool run gives the model (nodes/Nexthink/shared/toolOutput.ts): Simplified,
 * Raw and Selected Fields, and their checks.
 */
import { InputError } from '../../../nodes/Nexthink/shared/inputError';
import { readToolOutputShape, shapeToolRows } from '../../../nodes/Nexthink/shared/toolOutput';

const rows = [
	{ 'device.name': 'PC-1', 'device.os.name': 'Windows 11', 'device.entity': null, score: 0, ok: false },
	{ 'device.name': 'PC-2', 'device.os.name': '', 'device.entity': 'Zurich', score: 1, ok: true },
];

describe('readToolOutputShape', () => {
	it('defaults to Simplified', () => {
		expect(readToolOutputShape({})).toEqual({ mode: 'simplified', fields: [] });
	});

	it('reads Selected Fields from text or from a list (a model may fill it)', () => {
		expect(readToolOutputShape({ outputAsTool: 'selected', fieldsAsTool: ' device.name,\nscore , device.name' })).toEqual({ mode: 'selected', fields: ['device.name', 'score'] });
		expect(readToolOutputShape({ outputAsTool: 'selected', fieldsAsTool: ['score'] })).toEqual({ mode: 'selected', fields: ['score'] });
	});

	it.each([
		[{ outputAsTool: 'all' }, /^"Output When Used as a Tool" must be one of "simplified", "raw" or "selected", got "all"/],
		[{ outputAsTool: 'selected' }, /"Fields When Used as a Tool" names no column/],
		[{ outputAsTool: 'selected', fieldsAsTool: ' , ' }, /names no column/],
		[{ outputAsTool: 'selected', fieldsAsTool: { a: 1 } }, /names no column/],
	])('refuses %j before any request', (options, message) => {
		expect(() => readToolOutputShape(options)).toThrow(InputError);
		expect(() => readToolOutputShape(options)).toThrow(message);
	});
});

describe('shapeToolRows', () => {
	it('Raw: every column as given', () => {
		expect(shapeToolRows(rows, { mode: 'raw', fields: [] })).toEqual(rows);
	});

	it('Simplified without catalogue columns: every column but empty values (0 and false stay)', () => {
		expect(shapeToolRows(rows, { mode: 'simplified', fields: [] })).toEqual([
			{ 'device.name': 'PC-1', 'device.os.name': 'Windows 11', score: 0, ok: false },
			{ 'device.name': 'PC-2', 'device.entity': 'Zurich', score: 1, ok: true },
		]);
	});

	it('Simplified with the catalogue\'s columns, and Selected Fields: those columns in that order', () => {
		const expected = [
			{ score: 0, 'device.name': 'PC-1' },
			{ score: 1, 'device.name': 'PC-2' },
		];
		expect(shapeToolRows(rows, { mode: 'simplified', fields: [] }, ['score', 'device.name'])).toEqual(expected);
		expect(Object.keys(shapeToolRows(rows, { mode: 'selected', fields: ['score', 'device.name'] }, ['ok'])[0])).toEqual(['score', 'device.name']);
	});

	it('refuses a column no row has, naming the columns there are', () => {
		expect(() => shapeToolRows(rows, { mode: 'selected', fields: ['device.nam'] }, [], 'the query #q')).toThrow(
			'"device.nam" is not a column of the query #q (named in "Fields When Used as a Tool"). Its columns: device.name, device.os.name, device.entity, score, ok.',
		);
		expect(() => shapeToolRows(rows, { mode: 'simplified', fields: [] }, ['a', 'b'])).toThrow(/^"a", "b" are not columns of the result \(named in the Query Catalogue's Simplified Columns\)/);
		expect(shapeToolRows([], { mode: 'selected', fields: ['x'] })).toEqual([]);
	});
});
