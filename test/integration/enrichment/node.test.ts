/**
 * The Enrichment node over real HTTP: identification kinds, field families, value typing and
 * auto-mapping, checked on what reached the local server and on the server's inventory.
 */
import { localServerHooks } from '../../helpers/localServer';
import {
	deviceFields,
	enrich,
	enrichmentRequests,
	outcomeOf,
	startServer,
	TIER_FROM_INPUT,
	type TestServer,
} from './helpers';

const DEVICE_UID = '0b9f6c1e-3c2a-4d6f-9a51-6f0e2d7c8b11';
const USER_UID = '5d3c1b9a-7e6f-4a2b-8c1d-0e9f8a7b6c5d';
const BINARY_UID = '9a8b7c6d-5e4f-4a3b-9c1d-1e2f3a4b5c6d';
const PACKAGE_UID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const SID = 'S-1-5-21-1004336348-1177238915-682003330-512';

jest.setTimeout(30_000);

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
	const inventory = server.inventory;
	inventory.addDevice({ name: 'PC-001', uid: DEVICE_UID });
	inventory.addDevice({ name: 'PC-002' });
	inventory.addDevice({ name: 'VDI-001' });
	inventory.addUser({ name: 'Ann', uid: USER_UID, sid: SID, upn: 'ann@example.com' });
	inventory.addBinary({ name: 'tool.exe', uid: BINARY_UID });
	inventory.addPackage({ name: 'Tool', uid: PACKAGE_UID });
	for (const scope of ['device', 'user', 'binary', 'package']) inventory.addCustomField(scope, '#tier');
	inventory.addCustomField('organization', '#region');
});

localServerHooks(() => server);

const deviceNamed = (name: string) => [...server.inventory.devices.values()].find((device: { name: string }) => device.name === name);

describe('identification kinds', () => {
	it.each([
		['device', 'name', 'PC-001', 'device/device/name', 'PC-001', () => server.inventory.devices.get(DEVICE_UID)],
		['device', 'uid', DEVICE_UID.toUpperCase(), 'device/device/uid', DEVICE_UID, () => server.inventory.devices.get(DEVICE_UID)],
		['user', 'sid', SID, 'user/user/sid', SID, () => server.inventory.users.get(USER_UID)],
		['user', 'uid', USER_UID, 'user/user/uid', USER_UID, () => server.inventory.users.get(USER_UID)],
		['user', 'upn', 'ann@example.com', 'user/user/upn', 'ann@example.com', () => server.inventory.users.get(USER_UID)],
		['binary', 'uid', BINARY_UID, 'binary/binary/uid', BINARY_UID, () => server.inventory.binaries.get(BINARY_UID)],
		['package', 'uid', PACKAGE_UID, 'package/package/uid', PACKAGE_UID, () => server.inventory.packages.get(PACKAGE_UID)],
	])('%s by %s', async (objectType, identifyBy, input, sentName, sentValue, stored) => {
		const tier = `tier-${objectType}-${identifyBy}`;
		const result = await enrich(
			server,
			{
				objectType,
				identifyBy,
				identificationValue: '={{ $json.id }}',
				mappingMode: 'defineBelow',
				[`${objectType}Fields`]: {
					fieldValues: [
						objectType === 'binary' || objectType === 'package'
							? { customFieldId: 'tier', value: '={{ $json.tier }}' }
							: { field: 'customField', customFieldId: 'tier', value: '={{ $json.tier }}' },
					],
				},
			},
			{ items: [{ id: input, tier }] },
		);
		expect(result.error).toBeUndefined();
		expect(enrichmentRequests(server)).toEqual([
			{
				domain: 'n8n',
				enrichments: [{ identification: [{ name: sentName, value: sentValue }], fields: [{ name: `${objectType}/${objectType}/#tier`, value: tier }] }],
			},
		]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ id: input, tier });
		expect(outcomeOf(result.items[0])).toEqual({
			status: 'applied',
			applied: true,
			objectType,
			identification: { name: sentName, value: sentValue },
			fields: { [`${objectType}/${objectType}/#tier`]: tier },
			errors: [],
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(stored().fields[`${objectType}/${objectType}/#tier`]).toBe(tier);
	});

	it('an empty or malformed identification fails only its item, before sending', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { identifyBy: 'uid' }), {
			items: [{ name: '', tier: 'a' }, { name: 'not-a-uuid', tier: 'b' }, { name: DEVICE_UID, tier: 'c' }],
			onError: 'continueRegularOutput',
		});
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['failed', 'failed', 'applied']);
		expect(outcomeOf(result.items[0]).errors).toEqual([expect.objectContaining({ code: 'MISSING_IDENTIFICATION', source: 'node' })]);
		expect(outcomeOf(result.items[1]).errors).toEqual([expect.objectContaining({ code: 'INVALID_IDENTIFICATION', source: 'node' })]);
		expect(enrichmentRequests(server)[0].enrichments).toHaveLength(1);
	});
});

describe('Desktop Broker and Virtualization Type start unchosen', () => {
	const UNCHOSEN = [{ field: 'virtualization/desktop_broker' }, { field: 'virtualization/type' }];

	it('fails the item, naming the field, when a value was never chosen, and sends nothing', async () => {
		const result = await enrich(server, deviceFields(UNCHOSEN.slice(0, 1)), { items: [{ name: 'VDI-001' }], onError: 'continueRegularOutput' });
		expect(JSON.stringify(result.items[0].json)).toMatch(/Desktop Broker: no value chosen\. Pick a broker, or Clear to remove the desktop broker/);
		const type = await enrich(server, deviceFields(UNCHOSEN.slice(1)), { items: [{ name: 'VDI-001' }], onError: 'continueRegularOutput' });
		expect(JSON.stringify(type.items[0].json)).toMatch(/Virtualization Type: no value chosen\. Pick Personal, Pooled or Shared/);
		expect(enrichmentRequests(server)).toHaveLength(0);
	});
});

describe('field families', () => {
	it('device: configuration tag and every virtualization field, typed for the wire', async () => {
		const result = await enrich(
			server,
			deviceFields([
				{ field: 'configuration_tag', value: 'lab' },
				{ field: 'virtualization/desktop_broker', desktopBroker: 'citrix_daas' },
				{ field: 'virtualization/desktop_pool', value: 'pool-a' },
				{ field: 'virtualization/disk_image', value: 'win11-gold' },
				{ field: 'virtualization/environment_name', value: 'prod' },
				{ field: 'virtualization/hostname', value: 'host-7' },
				{ field: 'virtualization/hypervisor_name', value: 'hv-1' },
				{ field: 'virtualization/instance_size', value: 'D4s_v5' },
				{ field: 'virtualization/last_update', dateValue: '2024-05-31T16:30:00+02:00' },
				{ field: 'virtualization/region', value: 'westeurope' },
				{ field: 'virtualization/type', virtualizationType: 'pooled' },
			]),
			{ items: [{ name: 'VDI-001' }] },
		);
		expect(result.error).toBeUndefined();
		const [request] = enrichmentRequests(server);
		expect(request.enrichments[0].fields).toEqual([
			{ name: 'device/device/configuration_tag', value: 'lab' },
			{ name: 'device/device/virtualization/desktop_broker', value: 2 },
			{ name: 'device/device/virtualization/desktop_pool', value: 'pool-a' },
			{ name: 'device/device/virtualization/disk_image', value: 'win11-gold' },
			{ name: 'device/device/virtualization/environment_name', value: 'prod' },
			{ name: 'device/device/virtualization/hostname', value: 'host-7' },
			{ name: 'device/device/virtualization/hypervisor_name', value: 'hv-1' },
			{ name: 'device/device/virtualization/instance_size', value: 'D4s_v5' },
			{ name: 'device/device/virtualization/last_update', value: '2024-05-31T14:30:00.000Z' },
			{ name: 'device/device/virtualization/region', value: 'westeurope' },
			{ name: 'device/device/virtualization/type', value: 3 },
		]);
		expect(outcomeOf(result.items[0]).applied).toBe(true);
		expect(deviceNamed('VDI-001').fields).toMatchObject({
			'device/device/virtualization/desktop_broker': 2,
			'device/device/virtualization/type': 3,
			'device/device/virtualization/last_update': '2024-05-31T14:30:00.000Z',
		});
	});

	it('desktop broker and virtualization type from expressions, by name or number', async () => {
		const result = await enrich(
			server,
			deviceFields([
				{ field: 'virtualization/desktop_broker', desktopBroker: '={{ $json.broker }}' },
				{ field: 'virtualization/type', virtualizationType: '={{ $json.type }}' },
			]),
			{ items: [{ name: 'PC-001', broker: 'AWS AppStream', type: 2 }, { name: 'PC-002', broker: 5, type: 'shared' }] },
		);
		expect(result.error).toBeUndefined();
		expect(enrichmentRequests(server)[0].enrichments.map((enrichment) => enrichment.fields.map((field) => field.value))).toEqual([
			[7, 2],
			[5, 1],
		]);
	});

	it('user: Entra ID fields and an organization level', async () => {
		const result = await enrich(
			server,
			{
				objectType: 'user',
				identifyBy: 'upn',
				identificationValue: '={{ $json.upn }}',
				mappingMode: 'defineBelow',
				userFields: {
					fieldValues: [
						{ field: 'ad/city', value: 'Lausanne' },
						{ field: 'ad/country_code', value: 'CH' },
						{ field: 'ad/department', value: '={{ $json.department }}' },
						{ field: 'ad/distinguished_name', value: 'CN=Ann,OU=Finance,DC=example,DC=com' },
						{ field: 'ad/email_address', value: 'ann@example.com' },
						{ field: 'ad/full_name', value: 'Ann Example' },
						{ field: 'ad/job_title', value: 'Controller' },
						{ field: 'ad/last_update', dateValue: '2024-05-31T14:30:00Z' },
						{ field: 'ad/office', value: 'HQ' },
						{ field: 'ad/organizational_unit', value: 'Finance' },
						{ field: 'ad/username', value: 'ann' },
						{ field: 'organizationLevel', organizationLevel: 'region', value: 'EMEA' },
					],
				},
			},
			{ items: [{ upn: 'ANN@example.com', department: 'Finance' }] },
		);
		expect(result.error).toBeUndefined();
		expect(outcomeOf(result.items[0]).applied).toBe(true);
		const stored = server.inventory.users.get(USER_UID).fields;
		expect(stored).toMatchObject({
			'user/user/ad/department': 'Finance',
			'user/user/ad/last_update': '2024-05-31T14:30:00.000Z',
			'user/user/organization/#region': 'EMEA',
			'user/user/ad/username': 'ann',
		});
		expect(enrichmentRequests(server)[0].enrichments[0].fields).toHaveLength(12);
	});

	it('a field of another object type fails its item before anything is sent', async () => {
		const result = await enrich(server, deviceFields([{ field: 'ad/department', value: 'Finance' }]), {
			items: [{ name: 'PC-001' }],
			onError: 'continueRegularOutput',
		});
		expect(outcomeOf(result.items[0])).toMatchObject({ status: 'failed', errors: [{ code: 'INVALID_FIELD', source: 'node' }] });
		expect(enrichmentRequests(server)).toEqual([]);
	});

	it.each([
		['user', 'uid', USER_UID, { 'virtualization.desktop_pool': 'p', configuration_tag: 't', 'device.#tier': 'x' }],
		['binary', 'uid', BINARY_UID, { 'ad.department': 'd', 'virtualization.type': 'shared', 'package.#tier': 'x' }],
		['package', 'uid', PACKAGE_UID, { 'organization.#region': 'r', 'binary.#tier': 'x', 'user.ad.city': 'c' }],
	])('auto-mapping on a %s ignores the fields of other object types', async (objectType, identifyBy, id, keys) => {
		const result = await enrich(
			server,
			{ objectType, identifyBy, identificationValue: '={{ $json.id }}', mappingMode: 'autoMapInputData', options: { unmappedKeys: 'report' } },
			{ items: [{ id, ...keys }], onError: 'continueRegularOutput' },
		);
		expect(outcomeOf(result.items[0])).toMatchObject({ status: 'failed', errors: [{ code: 'NO_FIELDS', source: 'node' }] });
		expect(enrichmentRequests(server)).toEqual([]);
	});

	it('an empty string clears a field', async () => {
		deviceNamed('PC-002').fields['device/device/#tier'] = 'old';
		deviceNamed('PC-002').fields['device/device/virtualization/type'] = 2;
		const result = await enrich(
			server,
			deviceFields([TIER_FROM_INPUT, { field: 'virtualization/type', virtualizationType: '={{ $json.type }}' }]),
			{ items: [{ name: 'PC-002', tier: '', type: '' }] },
		);
		expect(result.error).toBeUndefined();
		expect(enrichmentRequests(server)[0].enrichments[0].fields).toEqual([
			{ name: 'device/device/#tier', value: '' },
			{ name: 'device/device/virtualization/type', value: '' },
		]);
		expect(deviceNamed('PC-002').fields).not.toHaveProperty('device/device/#tier');
		expect(deviceNamed('PC-002').fields).not.toHaveProperty('device/device/virtualization/type');
	});

	it('values of the wrong type fail their items before sending; the others are sent', async () => {
		const result = await enrich(
			server,
			deviceFields([
				{ field: 'virtualization/type', virtualizationType: '={{ $json.type }}' },
				{ field: 'virtualization/last_update', dateValue: '={{ $json.updated }}' },
			]),
			{
				items: [
					{ name: 'PC-001', type: 2.5, updated: '2024-05-31T14:30:00Z' },
					{ name: 'PC-002', type: 'shared', updated: 'last tuesday' },
					{ name: 'VDI-001', type: 'personal', updated: '2024-05-31T14:30:00Z' },
				],
				onError: 'continueRegularOutput',
			},
		);
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['failed', 'failed', 'applied']);
		expect(outcomeOf(result.items[0]).errors).toEqual([expect.objectContaining({ code: 'INVALID_VALUE' })]);
		expect(enrichmentRequests(server)[0].enrichments.map((enrichment) => enrichment.identification[0].value)).toEqual(['VDI-001']);
	});
});

describe('Map Automatically From Input', () => {
	const autoMap = (extra: object = {}) => ({
		objectType: 'device',
		identifyBy: 'name',
		identificationValue: '={{ $json["device.name"] }}',
		mappingMode: 'autoMapInputData',
		...extra,
	});

	it('maps every spelling of a field and leaves other keys out', async () => {
		const result = await enrich(server, autoMap(), {
			items: [
				{
					'device.name': 'PC-001',
					'device/device/#tier': 'api-spelling',
					'device.virtualization.desktop_pool': 'pool-b',
					'virtualization.hostname': 'host-9',
					'device.virtualization.type': 'personal',
					configuration_tag: 'auto',
					'device.operating_system.name': 'Windows 11',
					'user.ad.department': 'not a device field',
					note: 'ignored',
				},
			],
		});
		expect(result.error).toBeUndefined();
		expect(enrichmentRequests(server)[0].enrichments[0].fields).toEqual([
			{ name: 'device/device/#tier', value: 'api-spelling' },
			{ name: 'device/device/virtualization/desktop_pool', value: 'pool-b' },
			{ name: 'device/device/virtualization/hostname', value: 'host-9' },
			{ name: 'device/device/virtualization/type', value: 2 },
			{ name: 'device/device/configuration_tag', value: 'auto' },
		]);
		expect(outcomeOf(result.items[0])).not.toHaveProperty('unmappedKeys');
	});

	it('lists unmapped keys when asked to', async () => {
		const result = await enrich(server, autoMap({ options: { unmappedKeys: 'report' } }), {
			items: [{ 'device.name': 'PC-001', '#tier': 'short', 'device.entity': 'HQ', note: 'x' }],
		});
		expect(outcomeOf(result.items[0])).toMatchObject({
			applied: true,
			fields: { 'device/device/#tier': 'short' },
			unmappedKeys: ['device.entity', 'note'],
		});
	});

	it('user keys in Export spelling and short form', async () => {
		const result = await enrich(
			server,
			{
				objectType: 'user',
				identifyBy: 'sid',
				identificationValue: '={{ $json["user.sid"] }}',
				mappingMode: 'autoMapInputData',
			},
			{ items: [{ 'user.sid': SID, 'user.ad.department': 'Audit', 'ad.job_title': 'Lead', 'user.organization.#region': 'APAC' }] },
		);
		expect(result.error).toBeUndefined();
		expect(server.inventory.users.get(USER_UID).fields).toMatchObject({
			'user/user/ad/department': 'Audit',
			'user/user/ad/job_title': 'Lead',
			'user/user/organization/#region': 'APAC',
		});
	});

	it('wrong value types and items without fields are item errors found before sending', async () => {
		const result = await enrich(server, autoMap(), {
			items: [
				{ 'device.name': 'PC-001', 'virtualization.type': 7 },
				{ 'device.name': 'PC-002', '#tier': { nested: true } },
				{ 'device.name': 'VDI-001', 'ad.department': 'not for devices' },
				{ 'device.name': 'PC-001', '#tier': 'fine' },
			],
			onError: 'continueRegularOutput',
		});
		expect(result.items.map((item) => (outcomeOf(item).errors as Array<{ code: string }>).map((error) => error.code))).toEqual([
			['INVALID_VALUE'],
			['INVALID_VALUE'],
			['NO_FIELDS'],
			[],
		]);
		expect(enrichmentRequests(server)).toHaveLength(1);
		expect(enrichmentRequests(server)[0].enrichments).toHaveLength(1);
	});
});

describe('Validate Only', () => {
	it('reports every item without sending anything', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { validateOnly: true } }), {
			items: [{ name: 'PC-001', tier: 'a' }, { name: '', tier: 'b' }],
			onError: 'continueRegularOutput',
		});
		expect(enrichmentRequests(server)).toEqual([]);
		expect(result.items.map((item) => [outcomeOf(item).status, outcomeOf(item).applied])).toEqual([
			['valid', false],
			['failed', false],
		]);
		expect(outcomeOf(result.items[0]).fields).toEqual({ 'device/device/#tier': 'a' });
	});
});

describe('Domain', () => {
	it('sends the configured domain', async () => {
		await enrich(server, deviceFields([TIER_FROM_INPUT], { domain: 'cmdb-sync' }), { items: [{ name: 'PC-001', tier: 'x' }] });
		expect(enrichmentRequests(server)[0].domain).toBe('cmdb-sync');
	});

	it('refuses an empty domain before sending', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { domain: '  ' }), { items: [{ name: 'PC-001', tier: 'x' }] });
		expect(result.error?.message).toMatch(/domain is empty/);
		expect(enrichmentRequests(server)).toEqual([]);
	});
});
