/**
 * The local Nexthink server: the Enrichment API's validation, its 200/207/400 answers, the inventory
 * it updates and the exports that show the stored values.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest, runExport } = require('../client');

const PATH = '/api/v1/enrichment/data/fields';
const LAPTOP_UID = 'd0000000-0000-4000-8000-000000000001';
const ALICE_UID = 'a0000000-0000-4000-8000-000000000001';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const CHROME_UID = 'b0000000-0000-4000-8000-000000000001';
const SEVEN_ZIP_UID = 'c0000000-0000-4000-8000-000000000003';

let server: any;
let token: string;

beforeEach(async () => {
	server = await startNexthinkServer();
	token = await fetchToken(server);
});

afterEach(async () => {
	await server.close();
});

const enrich = (json: unknown) => apiRequest(server, token, 'POST', PATH, { json });
const device = (name: string, fields: Array<{ name: string; value: unknown }>) => ({
	identification: [{ name: 'device/device/name', value: name }],
	fields,
});
const fieldsOf = (type: string, uid: string) => server.inventory.objects[type].get(uid).fields;

describe('request-level validation', () => {
	it.each([
		['malformed JSON', '{"domain":', 'INVALID_JSON'],
		['a body that is not an object', '[]', 'INVALID_REQUEST'],
		['a missing domain', JSON.stringify({ enrichments: [device('LAPTOP-ZRH-001', [])] }), 'INVALID_REQUEST'],
		['an empty domain', JSON.stringify({ domain: '', enrichments: [] }), 'INVALID_REQUEST'],
		['missing enrichments', JSON.stringify({ domain: 'd' }), 'INVALID_REQUEST'],
		['empty enrichments', JSON.stringify({ domain: 'd', enrichments: [] }), 'EMPTY_REQUEST'],
		['an enrichment that is not an object', JSON.stringify({ domain: 'd', enrichments: ['x'] }), 'INVALID_REQUEST'],
		['identification not an array of {name, value}', JSON.stringify({ domain: 'd', enrichments: [{ identification: [{ name: 'device/device/name', value: 5 }], fields: [] }] }), 'INVALID_REQUEST'],
		['fields not an array', JSON.stringify({ domain: 'd', enrichments: [{ identification: [], fields: {} }] }), 'INVALID_REQUEST'],
	])('answers 400 with a bare {message, code} for %s', async (_label, body, code) => {
		const response = await apiRequest(server, token, 'POST', PATH, { body, headers: { 'content-type': 'application/json' } });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: expect.any(String), code });
	});

	it('accepts 10,000 objects and refuses 10,001', async () => {
		const item = device('LAPTOP-ZRH-001', [{ name: 'device/device/#tier', value: 'gold' }]);
		expect((await enrich({ domain: 'd', enrichments: Array(10000).fill(item) })).status).toBe(200);
		const refused = await enrich({ domain: 'd', enrichments: Array(10001).fill(item) });
		expect(refused.status).toBe(400);
		expect((await refused.json()).code).toBe('BATCH_SIZE_EXCEEDED');
	});
});

describe('answers', () => {
	it('answers 200 success and stores every value when all objects are fine', async () => {
		const response = await enrich({
			domain: 'cmdb',
			enrichments: [
				device('laptop-zrh-001', [
					{ name: 'device/device/#tier', value: 'gold' },
					{ name: 'device/device/configuration_tag', value: 'kiosk' },
					{ name: 'device/device/virtualization/type', value: 3 },
					{ name: 'device/device/virtualization/desktop_broker', value: 4 },
					{ name: 'device/device/virtualization/desktop_pool', value: 'pool-a' },
					{ name: 'device/device/virtualization/last_update', value: '2026-11-23T10:15:00.123+01:00' },
				]),
				{
					identification: [{ name: 'user/user/sid', value: ALICE_SID }],
					fields: [
						{ name: 'user/user/ad/department', value: 'Finance' },
						{ name: 'user/user/ad/last_update', value: '2026-11-23T09:00:00Z' },
						{ name: 'user/user/organization/#region', value: 'EMEA' },
						{ name: 'user/user/#cost_center', value: 'CC-42' },
					],
				},
				{ identification: [{ name: 'binary/binary/uid', value: CHROME_UID.toUpperCase() }], fields: [{ name: 'binary/binary/#approved', value: 'yes' }] },
				{ identification: [{ name: 'package/package/uid', value: SEVEN_ZIP_UID }], fields: [{ name: 'package/package/#owner', value: 'IT' }] },
				{ identification: [{ name: 'user/user/upn', value: 'Bob.Keller@example.com' }], fields: [{ name: 'user/user/ad/city', value: 'Zürich' }] },
			],
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ status: 'success' });
		expect(fieldsOf('device', LAPTOP_UID)).toEqual({
			'device/device/#tier': 'gold',
			'device/device/configuration_tag': 'kiosk',
			'device/device/virtualization/type': 3,
			'device/device/virtualization/desktop_broker': 4,
			'device/device/virtualization/desktop_pool': 'pool-a',
			'device/device/virtualization/last_update': '2026-11-23T09:15:00.123Z',
		});
		expect(fieldsOf('user', ALICE_UID)).toEqual({
			'user/user/ad/department': 'Finance',
			'user/user/ad/last_update': '2026-11-23T09:00:00.000Z',
			'user/user/organization/#region': 'EMEA',
			'user/user/#cost_center': 'CC-42',
		});
		expect(fieldsOf('binary', CHROME_UID)).toEqual({ 'binary/binary/#approved': 'yes' });
		expect(fieldsOf('package', SEVEN_ZIP_UID)).toEqual({ 'package/package/#owner': 'IT' });
		expect(fieldsOf('user', 'a0000000-0000-4000-8000-000000000002')).toEqual({ 'user/user/ad/city': 'Zürich' });
	});

	it('answers 207 partial_success, listing only the failed objects, and applies the others', async () => {
		const response = await enrich({
			domain: 'cmdb',
			enrichments: [
				device('LAPTOP-ZRH-001', [{ name: 'device/device/#tier', value: 'gold' }]),
				device('NO-SUCH-PC', [{ name: 'device/device/#tier', value: 'gold' }]),
				device('LAPTOP-ZRH-002', [
					{ name: 'device/device/#tier', value: 'silver' },
					{ name: 'device/device/virtualization/type', value: 9 },
				]),
			],
		});
		expect(response.status).toBe(207);
		expect(await response.json()).toEqual({
			status: 'partial_success',
			errors: [
				{ identification: [{ name: 'device/device/name', value: 'NO-SUCH-PC' }], errors: [{ message: expect.any(String), code: 'OBJECT_NOT_FOUND' }] },
				{ identification: [{ name: 'device/device/name', value: 'LAPTOP-ZRH-002' }], errors: [{ message: expect.any(String), code: 'INVALID_FIELD_VALUE' }] },
			],
		});
		expect(fieldsOf('device', LAPTOP_UID)).toEqual({ 'device/device/#tier': 'gold' });
		expect(fieldsOf('device', 'd0000000-0000-4000-8000-000000000002')).toEqual({});
	});

	it('answers 400 status error when every object failed', async () => {
		const response = await enrich({ domain: 'cmdb', enrichments: [device('NO-SUCH-PC', [{ name: 'device/device/#tier', value: 'gold' }])] });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			status: 'error',
			errors: [{ identification: [{ name: 'device/device/name', value: 'NO-SUCH-PC' }], errors: [{ message: expect.any(String), code: 'OBJECT_NOT_FOUND' }] }],
		});
	});

	it('applies objects in order, later values win, and an empty string clears a field', async () => {
		await enrich({
			domain: 'd',
			enrichments: [
				device('LAPTOP-ZRH-001', [{ name: 'device/device/#tier', value: 'gold' }, { name: 'device/device/#cmdb_id', value: 'CI-1' }]),
				device('LAPTOP-ZRH-001', [{ name: 'device/device/#tier', value: 'bronze' }]),
			],
		});
		expect(fieldsOf('device', LAPTOP_UID)).toEqual({ 'device/device/#tier': 'bronze', 'device/device/#cmdb_id': 'CI-1' });
		await enrich({ domain: 'd', enrichments: [device('LAPTOP-ZRH-001', [{ name: 'device/device/#tier', value: '' }])] });
		expect(fieldsOf('device', LAPTOP_UID)).toEqual({ 'device/device/#cmdb_id': 'CI-1' });
	});

	it('clears the desktop broker with 0', async () => {
		await enrich({ domain: 'd', enrichments: [device('VDI-POOL-001', [{ name: 'device/device/virtualization/desktop_broker', value: 2 }])] });
		expect(fieldsOf('device', 'd0000000-0000-4000-8000-000000000004')).toEqual({ 'device/device/virtualization/desktop_broker': 2 });
		await enrich({ domain: 'd', enrichments: [device('VDI-POOL-001', [{ name: 'device/device/virtualization/desktop_broker', value: 0 }])] });
		expect(fieldsOf('device', 'd0000000-0000-4000-8000-000000000004')).toEqual({});
	});
});

describe('per-object errors', () => {
	const errorCodesFor = async (enrichment: unknown) => {
		const response = await enrich({ domain: 'd', enrichments: [enrichment, device('LAPTOP-ZRH-001', [{ name: 'device/device/#tier', value: 'x' }])] });
		expect(response.status).toBe(207);
		const body = await response.json();
		return body.errors[0].errors.map((error: { code: string }) => error.code);
	};

	it.each([
		['no identification', { identification: [], fields: [{ name: 'device/device/#tier', value: 'x' }] }, ['INVALID_IDENTIFICATION']],
		[
			'two identifications',
			{
				identification: [
					{ name: 'device/device/name', value: 'LAPTOP-ZRH-001' },
					{ name: 'device/device/uid', value: LAPTOP_UID },
				],
				fields: [{ name: 'device/device/#tier', value: 'x' }],
			},
			['INVALID_IDENTIFICATION'],
		],
		['an unknown identification name', { identification: [{ name: 'device/device/serial', value: 'X' }], fields: [{ name: 'device/device/#tier', value: 'x' }] }, ['INVALID_IDENTIFICATION']],
		['a uid that is not a UUID', { identification: [{ name: 'device/device/uid', value: 'abc' }], fields: [{ name: 'device/device/#tier', value: 'x' }] }, ['INVALID_IDENTIFICATION']],
		['no fields', device('LAPTOP-ZRH-002', []), ['NO_FIELDS']],
		['a user field on a device', device('LAPTOP-ZRH-002', [{ name: 'user/user/ad/city', value: 'x' }]), ['INVALID_FIELD_NAME']],
		['an organization field on a device', device('LAPTOP-ZRH-002', [{ name: 'device/device/organization/#region', value: 'x' }]), ['INVALID_FIELD_NAME']],
		['an unknown virtualization field', device('LAPTOP-ZRH-002', [{ name: 'device/device/virtualization/colour', value: 'x' }]), ['INVALID_FIELD_NAME']],
		['a custom field name with capitals', device('LAPTOP-ZRH-002', [{ name: 'device/device/#Tier', value: 'x' }]), ['INVALID_FIELD_NAME']],
		['an undefined custom field', device('LAPTOP-ZRH-002', [{ name: 'device/device/#colour', value: 'x' }]), ['CUSTOM_FIELD_NOT_FOUND']],
		['a custom field defined for users only', device('LAPTOP-ZRH-002', [{ name: 'device/device/#cost_center', value: 'x' }]), ['CUSTOM_FIELD_NOT_FOUND']],
		['a number for a custom field', device('LAPTOP-ZRH-002', [{ name: 'device/device/#tier', value: 3 }]), ['INVALID_FIELD_VALUE']],
		['a string for virtualization type', device('LAPTOP-ZRH-002', [{ name: 'device/device/virtualization/type', value: '2' }]), ['INVALID_FIELD_VALUE']],
		['virtualization type 0', device('LAPTOP-ZRH-002', [{ name: 'device/device/virtualization/type', value: 0 }]), ['INVALID_FIELD_VALUE']],
		['desktop broker 8', device('LAPTOP-ZRH-002', [{ name: 'device/device/virtualization/desktop_broker', value: 8 }]), ['INVALID_FIELD_VALUE']],
		['a date without time', device('LAPTOP-ZRH-002', [{ name: 'device/device/virtualization/last_update', value: '2026-11-23' }]), ['INVALID_FIELD_VALUE']],
		['a timestamp without zone', device('LAPTOP-ZRH-002', [{ name: 'device/device/virtualization/last_update', value: '2026-11-23T10:00:00' }]), ['INVALID_FIELD_VALUE']],
		['null as a value', device('LAPTOP-ZRH-002', [{ name: 'device/device/#tier', value: null }]), ['INVALID_FIELD_VALUE']],
		[
			'several problems at once, all reported',
			device('NO-SUCH-PC', [
				{ name: 'device/device/#colour', value: 'x' },
				{ name: 'device/device/virtualization/type', value: 7 },
			]),
			['CUSTOM_FIELD_NOT_FOUND', 'INVALID_FIELD_VALUE', 'OBJECT_NOT_FOUND'],
		],
	])('reports %s', async (_label, enrichment, codes) => {
		expect(await errorCodesFor(enrichment)).toEqual(codes);
		expect(fieldsOf('device', 'd0000000-0000-4000-8000-000000000002')).toEqual({});
	});

	it('accepts custom fields that tests add to the inventory', async () => {
		server.inventory.addCustomField('device', 'colour');
		const response = await enrich({ domain: 'd', enrichments: [device('LAPTOP-ZRH-002', [{ name: 'device/device/#colour', value: 'red' }])] });
		expect(response.status).toBe(200);
	});
});

describe('inventory exports', () => {
	it('#device_fields shows enriched values, enumerations by name, custom columns included', async () => {
		server.inventory.addCustomField('device', '#colour');
		await enrich({
			domain: 'd',
			enrichments: [
				device('LAPTOP-ZRH-001', [
					{ name: 'device/device/#colour', value: 'red, "bright"' },
					{ name: 'device/device/virtualization/type', value: 2 },
					{ name: 'device/device/virtualization/desktop_broker', value: 1 },
				]),
			],
		});
		const { exportId } = await runExport(server, token, { queryId: '#device_fields' });
		const [header, first] = server.csvFor(exportId).split('\n');
		const columns = header.split(',');
		expect(columns).toEqual(expect.arrayContaining(['device.name', 'device.uid', 'device.#colour', 'device.#tier', 'device.virtualization.type']));
		expect(first).toContain('LAPTOP-ZRH-001,d0000000-0000-4000-8000-000000000001');
		expect(first).toContain('"red, ""bright"""');
		const values = first.replace('"red, ""bright"""', 'RED').split(',');
		expect(values[columns.indexOf('device.virtualization.type')]).toBe('personal');
		expect(values[columns.indexOf('device.virtualization.desktop_broker')]).toBe('citrix_cvad');
	});

	it('an export keeps the values of the moment it started', async () => {
		const { exportId } = await runExport(server, token, { queryId: '#user_directory' });
		await enrich({ domain: 'd', enrichments: [{ identification: [{ name: 'user/user/uid', value: ALICE_UID }], fields: [{ name: 'user/user/ad/city', value: 'Bern' }] }] });
		expect(server.csvFor(exportId)).not.toContain('Bern');
		const later = await runExport(server, token, { queryId: '#user_directory' });
		expect(server.csvFor(later.exportId)).toContain('Bern');
	});
});
