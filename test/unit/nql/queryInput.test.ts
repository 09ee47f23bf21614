/**
 * What the user types for a query, checked before sending: parameter names that are also
 * JavaScript property names, and the custom log tag (length in characters, what a header can carry).
 */
import {
	checkQueryFields,
	logTagHeaderValue,
	normaliseQueryId,
	normaliseQueryParameters,
	parseParametersJson,
	readQueryFields,
	validateLogTag,
} from '../../../nodes/Nexthink/nql/queryInput';

describe('query parameters', () => {
	it('keeps constructor, toString, hasOwnProperty and __proto__ as own, ordinary names', () => {
		const parameters = normaliseQueryParameters([
			{ name: 'constructor', value: 'a' },
			{ name: '$toString', value: 'b' },
			{ name: '__proto__', value: 'c' },
			{ name: 'hasOwnProperty', value: 'd' },
		]);
		expect(Object.entries(parameters)).toEqual([
			['constructor', 'a'],
			['toString', 'b'],
			['__proto__', 'c'],
			['hasOwnProperty', 'd'],
		]);
		expect(Object.getPrototypeOf(parameters)).toBe(Object.prototype);
		expect(JSON.stringify(parameters)).toBe('{"constructor":"a","toString":"b","__proto__":"c","hasOwnProperty":"d"}');
	});

	it('reads them from JSON too, and still refuses a name given twice', () => {
		expect(Object.entries(parseParametersJson('{"__proto__": 1, "constructor": "x"}'))).toEqual([
			['__proto__', '1'],
			['constructor', 'x'],
		]);
		expect(() => normaliseQueryParameters([{ name: 'constructor', value: 'a' }, { name: 'constructor', value: 'b' }])).toThrow(/given twice/);
	});
});

describe('custom log tag', () => {
	it('counts characters, not UTF-16 units: 255 characters ending in an emoji are accepted', () => {
		const tag = `${'a'.repeat(254)}🚀`;
		expect(tag.length).toBe(256);
		expect(validateLogTag(tag)).toBe(tag);
		expect(() => validateLogTag(`${tag}b`)).toThrow(/256 characters long; Nexthink accepts at most 255/);
	});

	it.each([
		['a\nb', /U\+000A, a line break\) at character 2/],
		['a\r', /U\+000D, a line break\) at character 2/],
		['\tx', /U\+0009, a tab\) at character 1/],
		['x\u0085', /control character \(U\+0085\)/],
		['x\u007f', /control character \(U\+007F\)/],
		['\udc00', /half of a character pair/],
		['tag ', /starts or ends with a space/],
	])('refuses %j with the reason', (tag, message) => {
		expect(() => validateLogTag(tag)).toThrow(message);
	});

	it('refuses an object instead of sending "[object Object]"; empty means no tag', () => {
		expect(() => validateLogTag({ a: 1 })).toThrow(/must be text, got an object/);
		expect(validateLogTag('')).toBeUndefined();
		expect(validateLogTag(null)).toBeUndefined();
	});

	it('hands the tag to the header as its UTF-8 bytes, one character per byte; ASCII unchanged', () => {
		expect(logTagHeaderValue('nightly-1')).toBe('nightly-1');
		const value = logTagHeaderValue('Zürich 東京 🚀');
		expect([...value].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
		expect(Buffer.from(value, 'latin1').toString('utf8')).toBe('Zürich 東京 🚀');
	});
});

describe('query ID messages', () => {
	const messageOf = (raw: string) => {
		try {
			normaliseQueryId(raw);
		} catch (error) {
			return (error as Error).message;
		}
		throw new Error(`${raw} was accepted`);
	};

	it('quote the ID as typed, without a # the user left out', () => {
		expect(messageOf('Device-Lookup')).toBe(
			'The query ID "Device-Lookup" has characters a query ID cannot have: "D" "-" "L". Use lower-case letters, digits and underscores (the # in front may be left out). Query IDs are lower case.',
		);
		expect(messageOf('a')).toBe('The query ID "a" is too short: it needs at least 2 characters.');
		expect(messageOf('a'.repeat(255))).toBe('The query ID is 255 characters long; at most 254 (255 with the # in front) are allowed.');
	});

	it('speak of the # when the user typed it', () => {
		expect(messageOf('#Bad id')).toBe(
			'The query ID "#Bad id" has characters a query ID cannot have: "B" " ". Use lower-case letters, digits and underscores after the #. Query IDs are lower case.',
		);
		expect(messageOf('#a')).toBe('The query ID "#a" is too short: it needs at least 2 characters after the #.');
		expect(messageOf(`#${'a'.repeat(255)}`)).toBe('The query ID is 256 characters long; at most 255 including the # are allowed.');
		expect(normaliseQueryId(' ok_query ')).toBe('#ok_query');
	});
});

describe('query fields (Export and Trigger read them the same way)', () => {
	const node = (values: Record<string, unknown>) => {
		const asked: string[] = [];
		const get = (name: string, fallback: unknown) => {
			asked.push(name);
			return name in values ? values[name] : fallback;
		};
		return { get, asked };
	};

	it('reads the pairs or the JSON field, whichever "Specify Query Parameters" shows', () => {
		const pairs = node({ queryId: 'all_devices', 'queryParameters.parameter': [{ name: 'os', value: 'Windows 11' }], queryParametersJson: '{"os":"ignored"}' });
		expect(checkQueryFields(readQueryFields(pairs.get))).toEqual({ queryId: '#all_devices', parameters: { os: 'Windows 11' } });
		expect(pairs.asked).not.toContain('queryParametersJson');
		const json = node({ queryId: '#all_devices', parametersInput: 'json', queryParametersJson: '{"os":"Windows 10"}', 'queryParameters.parameter': [{ name: 'os', value: 'ignored' }] });
		expect(checkQueryFields(readQueryFields(json.get))).toEqual({ queryId: '#all_devices', parameters: { os: 'Windows 10' } });
		expect(json.asked).not.toContain('queryParameters.parameter');
	});

	it('refuses a bad query ID or parameters with their own messages', () => {
		expect(() => checkQueryFields(readQueryFields(node({ queryId: 'All Devices' }).get))).toThrow(/All Devices/);
		expect(() => checkQueryFields(readQueryFields(node({ queryId: 'a_b', parametersInput: 'json', queryParametersJson: '{' }).get))).toThrow('The query parameters are not valid JSON');
	});
});
