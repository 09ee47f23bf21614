/**
 * The one reading of a choice (shared/parameterValues.ts): only a value the panel offers, exactly as
 * offered, comes back; anything else is an input error naming the choice, the value and the values.
 * That every choice of every node goes through it is shown by test/integration/choiceParameters.test.ts.
 */
import { readChoice } from '../../../nodes/Nexthink/shared/parameterValues';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

const OUTPUTS = ['rows', 'file', 'rowsAndFile'] as const;

describe('readChoice', () => {
	it.each(OUTPUTS)('%s is taken as it is', (value) => {
		expect(readChoice(value, 'Output', OUTPUTS, 'rows')).toBe(value);
	});

	it('absent is the default', () => {
		expect(readChoice(undefined, 'Output', OUTPUTS, 'file')).toBe('file');
	});

	it.each([
		['Rows', '"Rows"'],
		[' rows', '" rows"'],
		['ROWS', '"ROWS"'],
		['', '""'],
		[null, 'null'],
		[1, 'number 1'],
		[true, 'boolean true'],
		[['rows'], 'a list'],
		[{ value: 'rows' }, 'an object'],
		['constructor', '"constructor"'],
		['toString', '"toString"'],
	])('%j is an input error naming the choice, the value and the values', (value, shown) => {
		const read = () => readChoice(value, 'Output', OUTPUTS, 'rows');
		expect(read).toThrow(InputError);
		expect(read).toThrow(`"Output" must be one of "rows", "file" or "rowsAndFile", got ${shown}.`);
		try {
			read();
		} catch (error) {
			expect((error as InputError).field).toBe('Output');
		}
	});

	it('two values are joined with "or", one is named alone', () => {
		expect(() => readChoice('GET ', 'Start Method', ['POST', 'GET'], 'POST')).toThrow('"Start Method" must be one of "POST" or "GET", got "GET ".');
		expect(() => readChoice('name', 'Identify By', ['uid'], 'uid')).toThrow('"Identify By" must be "uid", got "name".');
	});
});
