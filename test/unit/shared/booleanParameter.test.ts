/**
 * The one reading of a switch (shared/parameterValues.ts): what an expression may give (text, a
 * number) is on or off only when clearly meant so; anything else is an input error naming the value.
 * Also every boolean parameter of every node is read through it (the sources are searched).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { readBoolean } from '../../../nodes/Nexthink/shared/parameterValues';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

describe('readBoolean', () => {
	it.each([true, 1, 'true', 'TRUE', ' True ', '1', ' 1', 'yes', 'YES', 'on', 'On'])('%j is on', (value) => {
		expect(readBoolean(value, 'Preview', false)).toBe(true);
	});

	it.each([false, 0, 'false', 'FALSE', ' false\n', '0', 'no', 'No', 'off'])('%j is off', (value) => {
		expect(readBoolean(value, 'Preview', true)).toBe(false);
	});

	it('absent is the default', () => {
		expect(readBoolean(undefined, 'Preview', false)).toBe(false);
		expect(readBoolean(undefined, 'API-Enabled Only', true)).toBe(true);
	});

	it.each([
		['', '""'],
		['  ', '"  "'],
		[null, 'null'],
		['maybe', '"maybe"'],
		['truthy', '"truthy"'],
		['t', '"t"'],
		[2, 'number 2'],
		[-1, 'number -1'],
		[0.5, 'number 0.5'],
		[Number.NaN, 'number NaN'],
		[[], 'a list'],
		[[true], 'a list'],
		[{}, 'an object'],
	])('%j is neither: an input error naming the switch and the value', (value, shown) => {
		const read = () => readBoolean(value, 'Validate Only', false);
		expect(read).toThrow(InputError);
		expect(read).toThrow(`"Validate Only" must be true or false, got ${shown}`);
		try {
			read();
		} catch (error) {
			expect((error as InputError).field).toBe('Validate Only');
		}
	});
});

describe('every boolean parameter of every node is read through readBoolean', () => {
	const root = join(__dirname, '../../../nodes');
	const files = (dir: string): string[] =>
		readdirSync(dir).flatMap((name) => {
			const path = join(dir, name);
			return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
		});
	const sources = files(root).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
	const booleanNames = [...new Set(sources.flatMap(({ text }) => [...text.matchAll(/name: '(\w+)',\s*type: 'boolean'/g)].map((match) => match[1])))];

	it('finds the boolean parameters', () => {
		expect(booleanNames).toEqual(expect.arrayContaining(['preview', 'validateOnly', 'allowWritesAsTool', 'returnAll', 'waitForResults']));
	});

	it.each(booleanNames.map((name) => [name]))('%s is never compared with true or false directly', (name) => {
		for (const { path, text } of sources) {
			const direct = new RegExp(`(\\.${name}|'${name}'[^)]*\\))\\s*[!=]==\\s*(true|false)`);
			expect({ path, direct: direct.exec(text)?.[0] }).toEqual({ path, direct: undefined });
		}
	});

	it.each(booleanNames.map((name) => [name]))('%s is read with readBoolean', (name) => {
		const reads = sources.filter(({ text }) => new RegExp(`readBoolean\\([^;]*\\b${name}\\b`).test(text));
		expect(reads.length).toBeGreaterThan(0);
	});
});
