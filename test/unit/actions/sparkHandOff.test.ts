/**
 * Spark → Hand Off Conversation's pure checks: the UPN (a header value), the message, the IANA time
 * zone, the metadata pairs and the binary properties named as files.
 */
import { checkBinaryProperty, checkMessage, checkMetadata, checkTimeZone, checkUpn, parseBinaryPropertyNames } from '../../../nodes/Nexthink/actions/spark/handOffInput';

describe('checkUpn', () => {
	it('accepts a UPN, trimmed', () => {
		expect(checkUpn(' jane.doe@contoso.com ')).toBe('jane.doe@contoso.com');
		expect(checkUpn("o'neil+it@sub.contoso.co.uk")).toBe("o'neil+it@sub.contoso.co.uk");
	});

	it.each([
		[undefined, 'No user'],
		['', 'No user'],
		['jane doe@contoso.com', 'is not a user principal name'],
		['jane@contoso.com\nX: y', 'is not a user principal name'],
		['jane@contoso.com\u0000', 'is not a user principal name'],
		['jane', 'is not a user principal name'],
		['a@b@c', 'is not a user principal name'],
		[`${'a'.repeat(1020)}@b.ch`, 'is not a user principal name'],
		[42, 'must be text, got number 42'],
	])('refuses %p', (raw, message) => {
		expect(() => checkUpn(raw)).toThrow(message);
	});
});

describe('checkMessage', () => {
	it('keeps the text as given and refuses a blank one', () => {
		expect(checkMessage(' Help!\n')).toBe(' Help!\n');
		expect(() => checkMessage(' \n')).toThrow('The message is empty');
		expect(() => checkMessage({})).toThrow('must be text, got an object');
	});
});

describe('checkTimeZone', () => {
	it.each([
		['', undefined],
		[undefined, undefined],
		['Europe/Zurich', 'Europe/Zurich'],
		['europe/paris', 'Europe/Paris'],
		['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
		['UTC', 'UTC'],
		['GMT', 'GMT'],
		['Etc/GMT+1', 'Etc/GMT+1'],
	])('reads %p as %p', (raw, expected) => {
		expect(checkTimeZone(raw)).toBe(expected);
	});

	it.each(['Mars/Olympus', '+01:00', 'Europe/Zurich\r\nX: y', 'CET CEST'])('refuses %p', (raw) => {
		expect(() => checkTimeZone(raw)).toThrow('is not an IANA time zone name');
	});
});

describe('checkMetadata', () => {
	it('makes a string map, none when empty', () => {
		expect(checkMetadata([])).toBeUndefined();
		expect(checkMetadata([{ key: ' ticket ', value: 'INC1' }, { key: 'n', value: 3 }, { key: 'ok', value: true }, { key: 'e' }])).toEqual({ ticket: 'INC1', n: '3', ok: 'true', e: '' });
	});

	it.each([
		[[{ key: '', value: 'x' }], 'A metadata entry has no key'],
		[[{ key: 'a', value: '1' }, { key: 'a', value: '2' }], 'Metadata key "a" is given twice'],
		[[{ key: 'a', value: { b: 1 } }], 'Metadata "a" must be text, got an object'],
	])('refuses %j', (entries, message) => {
		expect(() => checkMetadata(entries)).toThrow(message);
	});
});

describe('files', () => {
	it('reads the binary property names once each', () => {
		expect(parseBinaryPropertyNames('data, screenshot data\nlog')).toEqual(['data', 'screenshot', 'log']);
		expect(parseBinaryPropertyNames('')).toEqual([]);
	});

	it('needs the property and its MIME type, naming what the item has', () => {
		expect(checkBinaryProperty('data', { mimeType: 'image/png' }, ['data'])).toBe('image/png');
		expect(() => checkBinaryProperty('log', undefined, ['data', 'file'])).toThrow('The item has no binary property "log"; it has "data", "file"');
		expect(() => checkBinaryProperty('data', { mimeType: '' }, ['data'])).toThrow('Binary property "data" has no MIME type');
	});
});
