/**
 * The query catalogue (nodes/Nexthink/shared/queryCatalogue.ts): what the author writes is read and
 * checked, an ID or a parameter outside it is refused with the list of what may run.
 */
import { InputError } from '../../../nodes/Nexthink/shared/inputError';
import { catalogueEntryOf, catalogueListEntries, checkCatalogueParameters, describeCatalogue, readCatalogue } from '../../../nodes/Nexthink/shared/queryCatalogue';

const written = [
	{ queryId: 'devices_by_os', description: 'Devices whose OS matches os', parameters: 'os: operating system name, * as wildcard\n$site : the site', columns: 'device.name, device.os.name,device.name' },
	{ queryId: '#high_cpu_devices', description: 'Devices with a high CPU usage.', parameters: '', columns: '' },
];

describe('readCatalogue', () => {
	it('reads IDs with their #, parameters one per line with their meaning, columns each once', () => {
		expect(readCatalogue(written)).toEqual([
			{ queryId: '#devices_by_os', description: 'Devices whose OS matches os', parameters: [{ name: 'os', meaning: 'operating system name, * as wildcard' }, { name: 'site', meaning: 'the site' }], columns: ['device.name', 'device.os.name'] },
			{ queryId: '#high_cpu_devices', description: 'Devices with a high CPU usage.', parameters: [], columns: [] },
		]);
	});

	it.each([undefined, null, '', []])('has no catalogue for %p: any query may run', (raw) => {
		expect(readCatalogue(raw)).toBeUndefined();
	});

	it.each([
		[[{ queryId: 'Devices' }], /query 1: "#Devices" is not a query ID/],
		[[{ queryId: '' }], /query 1: "#" is not a query ID/],
		[[{ queryId: 'a_b' }, { queryId: '#a_b' }], /query 2: #a_b is listed twice/],
		[[{ queryId: 'a_b', parameters: 'os name: x' }], /the parameter "os name" is not an NQL parameter name/],
		[[{ queryId: 'a_b', parameters: 'os\nos: again' }], /the parameter os is listed twice/],
		[[{ queryId: 'a_b', description: { a: 1 } }], /What It Answers must be text, got an object/],
		['#a_b', /must be a list of queries/],
	])('refuses %j', (raw, message) => {
		expect(() => readCatalogue(raw)).toThrow(InputError);
		expect(() => readCatalogue(raw)).toThrow(message);
	});
});

describe('catalogueEntryOf and checkCatalogueParameters', () => {
	const catalogue = readCatalogue(written)!;

	it.each(['devices_by_os', '#devices_by_os', ' #devices_by_os '])('finds %p', (typed) => {
		expect(catalogueEntryOf(catalogue, typed).queryId).toBe('#devices_by_os');
	});

	it.each([['#all_devices', 'The query ID "#all_devices" is not in this node\'s Query Catalogue'], ['?', 'The query ID "?" is not'], ['', 'No query ID was given'], [undefined, 'No query ID was given'], [{ id: 1 }, 'No query ID was given']])(
		'refuses %p with the list of the queries it may run, their meaning and parameters',
		(typed, opening) => {
			let error: InputError | undefined;
			try {
				catalogueEntryOf(catalogue, typed);
			} catch (caught) {
				error = caught as InputError;
			}
			expect(error).toBeInstanceOf(InputError);
			expect(error!.message.startsWith(opening)).toBe(true);
			expect(error!.message).toContain(
				': nothing was sent. The queries it may run: #devices_by_os: Devices whose OS matches os. Parameters: os (operating system name, * as wildcard), site (the site). #high_cpu_devices: Devices with a high CPU usage. Parameters: none.',
			);
		},
	);

	it('is case-sensitive as query IDs are lower case', () => {
		expect(() => catalogueEntryOf(catalogue, '#Devices_By_OS')).toThrow(/is not in this node's Query Catalogue/);
	});

	it('accepts exactly the entry\'s parameters, and names the unknown and missing ones', () => {
		const entry = catalogueEntryOf(catalogue, 'devices_by_os');
		expect(() => checkCatalogueParameters(entry, ['site', 'os'])).not.toThrow();
		expect(() => checkCatalogueParameters(entry, ['os', 'name'])).toThrow(/^#devices_by_os: it takes no parameter name and it needs site; nothing was sent\. #devices_by_os: Devices/);
		expect(() => checkCatalogueParameters(catalogueEntryOf(catalogue, 'high_cpu_devices'), ['os'])).toThrow(/^#high_cpu_devices: it takes no parameter os; nothing was sent/);
	});

	it('describes an entry without a description by its ID and parameters', () => {
		expect(describeCatalogue(readCatalogue([{ queryId: 'x1', parameters: 'os' }])!)).toBe('#x1: Parameters: os.');
	});
});

describe('catalogueListEntries (Query ID "From List")', () => {
	it('lists well-formed IDs once, in order, with what they answer; anything else gives an empty list', () => {
		const raw = [{ queryId: ' a_b ', description: ' Devices ' }, { queryId: '#a_b', description: 'again' }, { queryId: 42 }, null, { queryId: '#c_d' }];
		expect(catalogueListEntries(raw)).toEqual([
			{ name: '#a_b — Devices', value: '#a_b' },
			{ name: '#c_d', value: '#c_d' },
		]);
		expect(catalogueListEntries(raw, ' DEV ')).toEqual([{ name: '#a_b — Devices', value: '#a_b' }]);
		for (const nothing of [undefined, null, '', {}, 'text']) expect(catalogueListEntries(nothing)).toEqual([]);
	});
});
