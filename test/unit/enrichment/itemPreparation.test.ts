import { createKeyResolver } from '../../../nodes/Nexthink/enrichment/fieldCatalogue';
import {
	CUSTOM_FIELD,
	fieldsFromEntries,
	fieldsFromInput,
	ORGANIZATION_LEVEL,
	prepareIdentification,
} from '../../../nodes/Nexthink/enrichment/itemPreparation';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

const utc = { timezone: 'UTC' };
const UUID = '3FA85F64-5717-4562-B3FC-2C963F66AFA6';

function thrown(fn: () => unknown): InputError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}
	throw new Error('expected an InputError');
}

describe('prepareIdentification', () => {
	it.each([
		['device', 'name', ' PC-001 ', { name: 'device/device/name', value: 'PC-001' }],
		['device', 'uid', UUID, { name: 'device/device/uid', value: UUID.toLowerCase() }],
		['user', 'sid', 'S-1-5-21-1-2-3-1001', { name: 'user/user/sid', value: 'S-1-5-21-1-2-3-1001' }],
		['user', 'uid', UUID, { name: 'user/user/uid', value: UUID.toLowerCase() }],
		['user', 'upn', 'ann@example.com', { name: 'user/user/upn', value: 'ann@example.com' }],
		['binary', 'uid', UUID, { name: 'binary/binary/uid', value: UUID.toLowerCase() }],
		['package', 'uid', UUID, { name: 'package/package/uid', value: UUID.toLowerCase() }],
		['device', 'name', 12345, { name: 'device/device/name', value: '12345' }],
	] as const)('%s by %s', (objectType, kind, raw, expected) => {
		expect(prepareIdentification(objectType, kind, raw)).toEqual(expected);
	});

	it.each([[''], ['   '], [null], [undefined]])('an empty value %p is an error for the item', (raw) => {
		const error = thrown(() => prepareIdentification('device', 'name', raw));
		expect(error.code).toBe('MISSING_IDENTIFICATION');
		expect(error.message).toContain('device/device/name');
	});

	it.each([['not-a-uuid'], ['3fa85f64-5717-4562-b3fc-2c963f66afa'], ['3fa85f6457174562b3fc2c963f66afa6']])(
		'a UID that is not UUID-shaped (%p) is an error',
		(raw) => {
			expect(thrown(() => prepareIdentification('binary', 'uid', raw)).code).toBe('INVALID_IDENTIFICATION');
		},
	);

	it('objects and lists are refused', () => {
		expect(thrown(() => prepareIdentification('user', 'upn', { upn: 'x' })).code).toBe('INVALID_IDENTIFICATION');
		expect(thrown(() => prepareIdentification('user', 'upn', ['x'])).message).toContain('a list');
	});
});

describe('fieldsFromEntries ("Map Each Field")', () => {
	it('types each entry by its field', () => {
		const fields = fieldsFromEntries(
			'device',
			[
				{ field: CUSTOM_FIELD, customFieldId: 'tier', value: 'gold' },
				{ field: 'configuration_tag', value: 'lab' },
				{ field: 'virtualization/desktop_broker', desktopBroker: 'citrix_daas' },
				{ field: 'virtualization/type', virtualizationType: 'pooled' },
				{ field: 'virtualization/last_update', dateValue: '2024-05-31T14:30:00Z' },
				{ field: 'virtualization/desktop_pool', value: '' },
			],
			utc,
		);
		expect(fields).toEqual([
			{ name: 'device/device/#tier', value: 'gold' },
			{ name: 'device/device/configuration_tag', value: 'lab' },
			{ name: 'device/device/virtualization/desktop_broker', value: 2 },
			{ name: 'device/device/virtualization/type', value: 3 },
			{ name: 'device/device/virtualization/last_update', value: '2024-05-31T14:30:00.000Z' },
			{ name: 'device/device/virtualization/desktop_pool', value: '' },
		]);
	});

	it('user entries: Entra ID fields and organization levels', () => {
		expect(
			fieldsFromEntries(
				'user',
				[
					{ field: 'ad/department', value: 'Finance' },
					{ field: ORGANIZATION_LEVEL, organizationLevel: '#region', value: 'EMEA' },
					{ field: 'ad/last_update', dateValue: '2024-01-01' },
				],
				utc,
			),
		).toEqual([
			{ name: 'user/user/ad/department', value: 'Finance' },
			{ name: 'user/user/organization/#region', value: 'EMEA' },
			{ name: 'user/user/ad/last_update', value: '2024-01-01T00:00:00.000Z' },
		]);
	});

	it('binary and package entries have no field choice: they are custom fields', () => {
		expect(fieldsFromEntries('package', [{ customFieldId: '#owner', value: 'IT' }], utc)).toEqual([
			{ name: 'package/package/#owner', value: 'IT' },
		]);
	});

	it('a field that does not fit the object type is an error', () => {
		expect(thrown(() => fieldsFromEntries('device', [{ field: 'ad/department', value: 'x' }], utc)).code).toBe('INVALID_FIELD');
		expect(thrown(() => fieldsFromEntries('user', [{ field: 'virtualization/type', virtualizationType: 'shared' }], utc)).code).toBe(
			'INVALID_FIELD',
		);
		expect(thrown(() => fieldsFromEntries('device', [{ field: ORGANIZATION_LEVEL, organizationLevel: 'x', value: 'y' }], utc)).code).toBe(
			'INVALID_FIELD',
		);
	});

	it('a missing or malformed custom field ID is an error', () => {
		expect(thrown(() => fieldsFromEntries('device', [{ field: CUSTOM_FIELD, customFieldId: '', value: 'x' }], utc)).message).toMatch(/is empty/);
		expect(thrown(() => fieldsFromEntries('device', [{ field: CUSTOM_FIELD, customFieldId: 'my field', value: 'x' }], utc)).message).toMatch(
			/not an NQL ID/,
		);
	});

	it.each([
		[{ id: 'owner' }, 'an object'],
		[['owner'], 'a list'],
		[42, 'number 42'],
	])('a custom field ID given as %j is named by its kind, never coerced to text', (customFieldId, shown) => {
		const message = thrown(() => fieldsFromEntries('device', [{ field: CUSTOM_FIELD, customFieldId, value: 'x' }], utc)).message;
		expect(message).toContain(`The custom field ID must be text, got ${shown}:`);
		expect(message).not.toContain('[object Object]');
	});

	it('null values are skipped; an item left without fields is an error', () => {
		expect(
			fieldsFromEntries(
				'device',
				[
					{ field: CUSTOM_FIELD, customFieldId: 'a', value: null },
					{ field: CUSTOM_FIELD, customFieldId: 'b', value: 'x' },
				],
				utc,
			),
		).toEqual([{ name: 'device/device/#b', value: 'x' }]);
		expect(thrown(() => fieldsFromEntries('device', [{ field: CUSTOM_FIELD, customFieldId: 'a', value: null }], utc)).code).toBe('NO_FIELDS');
		expect(thrown(() => fieldsFromEntries('device', [], utc)).code).toBe('NO_FIELDS');
	});

	it('a value of the wrong type is an error for the item', () => {
		expect(thrown(() => fieldsFromEntries('device', [{ field: 'virtualization/type', virtualizationType: 'huge' }], utc)).code).toBe(
			'INVALID_VALUE',
		);
	});
});

describe('fieldsFromInput ("Map Automatically From Input")', () => {
	it('maps every spelling, skips nulls and identification keys, lists the other keys', () => {
		const result = fieldsFromInput(
			'device',
			{
				'device.name': 'PC-1',
				'device.#tier': 'gold',
				'virtualization.type': 'personal',
				'device/device/virtualization/last_update': '2024-05-31T14:30:00Z',
				'#owner': null,
				'device.operating_system.name': 'Windows',
				comment: 'hello',
			},
			createKeyResolver('device'),
			utc,
		);
		expect(result.fields).toEqual([
			{ name: 'device/device/#tier', value: 'gold' },
			{ name: 'device/device/virtualization/type', value: 2 },
			{ name: 'device/device/virtualization/last_update', value: '2024-05-31T14:30:00.000Z' },
		]);
		expect(result.unmappedKeys).toEqual(['device.operating_system.name', 'comment']);
	});

	it('values of the wrong type are errors found before sending', () => {
		const resolve = createKeyResolver('device');
		expect(thrown(() => fieldsFromInput('device', { 'virtualization.type': 2.5 }, resolve, utc)).code).toBe('INVALID_VALUE');
		expect(thrown(() => fieldsFromInput('device', { 'virtualization.last_update': 'soon' }, resolve, utc)).code).toBe('INVALID_VALUE');
		expect(thrown(() => fieldsFromInput('device', { '#tier': { nested: true } }, resolve, utc)).code).toBe('INVALID_VALUE');
		expect(thrown(() => fieldsFromInput('device', { '#tier': ['a'] }, resolve, utc)).code).toBe('INVALID_VALUE');
	});

	it('an item with no field key is an error that lists its keys', () => {
		const error = thrown(() => fieldsFromInput('user', { 'user.sid': 'S-1', department: 'x' }, createKeyResolver('user'), utc));
		expect(error.code).toBe('NO_FIELDS');
		expect(error.message).toContain('user.sid, department');
	});
});
