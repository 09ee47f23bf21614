import { convertFieldValue, toIsoUtcMillis } from '../../../nodes/Nexthink/enrichment/valueConversion';
import type { FieldTarget } from '../../../nodes/Nexthink/enrichment/fieldCatalogue';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

const utc = { timezone: 'UTC' };
const text: FieldTarget = { name: 'device/device/#tier', kind: 'text' };
const date: FieldTarget = { name: 'device/device/virtualization/last_update', kind: 'dateTime' };
const broker: FieldTarget = { name: 'device/device/virtualization/desktop_broker', kind: 'desktopBroker' };
const vtype: FieldTarget = { name: 'device/device/virtualization/type', kind: 'virtualizationType' };

function conversionError(target: FieldTarget, raw: unknown, timezone = 'UTC'): InputError {
	try {
		convertFieldValue(target, raw, { timezone });
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}
	throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('text fields', () => {
	it('sends strings unchanged, including the empty string that clears the field', () => {
		expect(convertFieldValue(text, 'gold', utc)).toBe('gold');
		expect(convertFieldValue(text, '', utc)).toBe('');
		expect(convertFieldValue(text, '  padded ', utc)).toBe('  padded ');
	});

	it('turns numbers and booleans into their text', () => {
		expect(convertFieldValue(text, 42, utc)).toBe('42');
		expect(convertFieldValue(text, 1.5, utc)).toBe('1.5');
		expect(convertFieldValue(text, false, utc)).toBe('false');
	});

	it('writes dates as ISO text', () => {
		expect(convertFieldValue(text, new Date(Date.UTC(2024, 4, 1, 12)), utc)).toBe('2024-05-01T12:00:00.000Z');
	});

	it('refuses objects, lists and non-finite numbers', () => {
		expect(conversionError(text, { a: 1 }).message).toMatch(/device\/device\/#tier: expects text, got an object/);
		expect(conversionError(text, ['a']).message).toMatch(/got a list/);
		expect(conversionError(text, Number.NaN).code).toBe('INVALID_VALUE');
		expect(conversionError(text, Infinity).code).toBe('INVALID_VALUE');
	});
});

describe('desktop broker', () => {
	it.each([
		['citrix_cvad', 1],
		['citrix_daas', 2],
		['azure_virtual_desktops', 3],
		['windows_365', 4],
		['horizon_on_prem', 5],
		['aws_workspace', 6],
		['aws_appstream', 7],
		['clear', 0],
		['', 0],
		['Citrix DaaS', 2],
		['AWS-AppStream', 7],
		['  windows_365 ', 4],
		['3', 3],
		[5, 5],
		[0, 0],
	])('%p is sent as %p', (raw, expected) => {
		expect(convertFieldValue(broker, raw, utc)).toBe(expected);
	});

	it.each([['citrix'], ['8'], [8], [-1], [1.5], ['1.5'], [true], [{}]])('refuses %p', (raw) => {
		const error = conversionError(broker, raw);
		expect(error.code).toBe('INVALID_VALUE');
		expect(error.message).toContain('citrix_cvad');
	});
});

describe('virtualization type', () => {
	it.each([
		['shared', 1],
		['personal', 2],
		['pooled', 3],
		['Pooled', 3],
		['2', 2],
		[3, 3],
		['', ''],
	])('%p is sent as %p', (raw, expected) => {
		expect(convertFieldValue(vtype, raw, utc)).toBe(expected);
	});

	it.each([['dedicated'], [0], [4], [2.5], ['2.5'], [null]])('refuses %p', (raw) => {
		expect(conversionError(vtype, raw).code).toBe('INVALID_VALUE');
	});
});

describe('date-time fields', () => {
	it.each([
		['2024-05-31T14:30:00Z', '2024-05-31T14:30:00.000Z'],
		['2024-05-31T14:30:00.123456Z', '2024-05-31T14:30:00.123Z'],
		['2024-05-31T14:30:00.5Z', '2024-05-31T14:30:00.500Z'],
		['2024-05-31T16:30:00+02:00', '2024-05-31T14:30:00.000Z'],
		['2024-05-31T09:30:00-0500', '2024-05-31T14:30:00.000Z'],
		['2024-05-31T14:30+00', '2024-05-31T14:30:00.000Z'],
		['2024-05-31 14:30:00z', '2024-05-31T14:30:00.000Z'],
		['2024-05-31', '2024-05-31T00:00:00.000Z'],
		['  2024-05-31T14:30:00Z ', '2024-05-31T14:30:00.000Z'],
	])('%s → %s', (raw, expected) => {
		expect(convertFieldValue(date, raw, utc)).toBe(expected);
	});

	it('reads a date-time without offset in the workflow time zone', () => {
		expect(toIsoUtcMillis('f', '2024-01-15T10:00:00', 'Europe/Zurich')).toBe('2024-01-15T09:00:00.000Z');
		expect(toIsoUtcMillis('f', '2024-07-15T10:00:00', 'Europe/Zurich')).toBe('2024-07-15T08:00:00.000Z');
		expect(toIsoUtcMillis('f', '2024-07-15T10:00:00', 'America/New_York')).toBe('2024-07-15T14:00:00.000Z');
		expect(toIsoUtcMillis('f', '2024-07-15', 'Asia/Kolkata')).toBe('2024-07-14T18:30:00.000Z');
		// an explicit offset wins over the workflow time zone
		expect(toIsoUtcMillis('f', '2024-07-15T10:00:00Z', 'America/New_York')).toBe('2024-07-15T10:00:00.000Z');
	});

	it('resolves wall-clock times around DST changes', () => {
		// 02:30 does not exist in Zurich on 2024-03-31 (clocks jump 02:00 → 03:00): an hour later is used
		expect(toIsoUtcMillis('f', '2024-03-31T02:30:00', 'Europe/Zurich')).toBe('2024-03-31T01:30:00.000Z');
		expect(toIsoUtcMillis('f', '2024-03-31T03:30:00', 'Europe/Zurich')).toBe('2024-03-31T01:30:00.000Z');
		expect(toIsoUtcMillis('f', '2024-03-31T01:30:00', 'Europe/Zurich')).toBe('2024-03-31T00:30:00.000Z');
		expect(toIsoUtcMillis('f', '2024-10-27T04:00:00', 'Europe/Zurich')).toBe('2024-10-27T03:00:00.000Z');
	});

	it('accepts Date objects and Luxon-like DateTimes', () => {
		expect(convertFieldValue(date, new Date('2024-05-31T14:30:00.250Z'), utc)).toBe('2024-05-31T14:30:00.250Z');
		const luxonLike = { toJSDate: () => new Date('2024-05-31T14:30:00Z') };
		expect(convertFieldValue(date, luxonLike, utc)).toBe('2024-05-31T14:30:00.000Z');
	});

	it('passes the empty string through to clear the field', () => {
		expect(convertFieldValue(date, '', utc)).toBe('');
		expect(convertFieldValue(date, '   ', utc)).toBe('');
	});

	it.each([
		['yesterday'],
		['31/05/2024'],
		['2024-02-30'],
		['2024-13-01'],
		['2024-05-31T25:00:00Z'],
		['2024-05-31T14:30:00+25'],
		['3'],
		['2024-05-31T14:30:00 UTC'],
	])('refuses the string %p', (raw) => {
		expect(conversionError(date, raw).code).toBe('INVALID_VALUE');
	});

	it('refuses numbers, saying why', () => {
		expect(conversionError(date, 1717165800000).message).toMatch(/seconds and milliseconds/);
	});

	it('refuses invalid Dates and objects', () => {
		expect(conversionError(date, new Date('nope')).message).toMatch(/invalid/);
		expect(conversionError(date, { year: 2024 }).code).toBe('INVALID_VALUE');
	});
});
