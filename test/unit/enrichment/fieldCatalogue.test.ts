import { createKeyResolver, resolveInputKey } from '../../../nodes/Nexthink/enrichment/fieldCatalogue';

const fieldName = (objectType: Parameters<typeof resolveInputKey>[0], key: string) => {
	const meaning = resolveInputKey(objectType, key);
	return meaning.kind === 'field' ? meaning.target.name : meaning.kind;
};

describe('resolveInputKey: every spelling of a field names the same API field', () => {
	it.each([
		['device/device/#tier', 'device/device/#tier'],
		['device.#tier', 'device/device/#tier'],
		['#tier', 'device/device/#tier'],
		['device/device/virtualization/desktop_pool', 'device/device/virtualization/desktop_pool'],
		['device.virtualization.desktop_pool', 'device/device/virtualization/desktop_pool'],
		['virtualization.desktop_pool', 'device/device/virtualization/desktop_pool'],
		['virtualization/desktop_pool', 'device/device/virtualization/desktop_pool'],
		['Device.Virtualization.Desktop_Pool', 'device/device/virtualization/desktop_pool'],
		['configuration_tag', 'device/device/configuration_tag'],
		['device.configuration_tag', 'device/device/configuration_tag'],
		['device.virtualization.type', 'device/device/virtualization/type'],
		['  #tier  ', 'device/device/#tier'],
	])('device key %s', (key, expected) => {
		expect(fieldName('device', key)).toBe(expected);
	});

	it.each([
		['user/user/ad/department', 'user/user/ad/department'],
		['user.ad.department', 'user/user/ad/department'],
		['ad.department', 'user/user/ad/department'],
		['ad.last_update', 'user/user/ad/last_update'],
		['user.#cost_center', 'user/user/#cost_center'],
		['#cost_center', 'user/user/#cost_center'],
		['user/user/organization/#region', 'user/user/organization/#region'],
		['user.organization.#region', 'user/user/organization/#region'],
		['organization.#region', 'user/user/organization/#region'],
	])('user key %s', (key, expected) => {
		expect(fieldName('user', key)).toBe(expected);
	});

	it('binary and package take custom fields only', () => {
		expect(fieldName('binary', 'binary.#risk')).toBe('binary/binary/#risk');
		expect(fieldName('binary', '#risk')).toBe('binary/binary/#risk');
		expect(fieldName('package', 'package/package/#owner')).toBe('package/package/#owner');
		expect(fieldName('binary', 'configuration_tag')).toBe('unmapped');
		expect(fieldName('package', 'ad.department')).toBe('unmapped');
	});

	it('keeps the case of custom field IDs', () => {
		expect(fieldName('device', 'device.#Tier')).toBe('device/device/#Tier');
	});
});

describe('resolveInputKey: keys that are not fields of the object type', () => {
	it('fields of another object type are unmapped', () => {
		expect(fieldName('device', 'ad.department')).toBe('unmapped');
		expect(fieldName('device', 'user.ad.department')).toBe('unmapped');
		expect(fieldName('device', 'user.#tier')).toBe('unmapped');
		expect(fieldName('user', 'virtualization.desktop_pool')).toBe('unmapped');
		expect(fieldName('device', 'organization.#region')).toBe('unmapped');
	});

	it('read-only Export columns and arbitrary keys are unmapped', () => {
		expect(fieldName('device', 'device.operating_system.name')).toBe('unmapped');
		expect(fieldName('device', 'virtualization.unknown')).toBe('unmapped');
		expect(fieldName('device', 'tier')).toBe('unmapped');
		expect(fieldName('device', 'device')).toBe('unmapped');
		expect(fieldName('device', '')).toBe('unmapped');
		expect(fieldName('device', '#')).toBe('unmapped');
		expect(fieldName('device', '#has space')).toBe('unmapped');
	});

	it('identification columns are recognised (never fields, never reported)', () => {
		expect(fieldName('device', 'device.name')).toBe('identification');
		expect(fieldName('device', 'device.uid')).toBe('identification');
		expect(fieldName('device', 'device/device/uid')).toBe('identification');
		expect(fieldName('user', 'user.upn')).toBe('identification');
		expect(fieldName('user', 'user.sid')).toBe('identification');
		// without the object prefix a bare "name" is just some key
		expect(fieldName('device', 'name')).toBe('unmapped');
		// another object's identification is unmapped, not this object's identification
		expect(fieldName('device', 'user.sid')).toBe('unmapped');
	});
});

describe('createKeyResolver', () => {
	it('answers like resolveInputKey and reuses the answer for repeated keys', () => {
		const resolve = createKeyResolver('device');
		const first = resolve('device.#tier');
		expect(first).toEqual(resolveInputKey('device', 'device.#tier'));
		expect(resolve('device.#tier')).toBe(first);
		expect(resolve('ad.department')).toEqual({ kind: 'unmapped' });
	});
});
