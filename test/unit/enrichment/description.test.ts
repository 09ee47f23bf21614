import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { enrichmentProperties, fieldsParameterName } from '../../../nodes/Nexthink/enrichment/description';
import {
	DESKTOP_BROKERS,
	FIXED_FIELDS,
	IDENTIFICATION_KINDS,
	OBJECT_TYPES,
	VIRTUALIZATION_TYPES,
	type ObjectType,
} from '../../../nodes/Nexthink/enrichment/fieldCatalogue';
import { CUSTOM_FIELD, NOT_CHOSEN, ORGANIZATION_LEVEL } from '../../../nodes/Nexthink/enrichment/itemPreparation';

function entryValues(objectType: ObjectType): INodeProperties[] {
	const property = enrichmentProperties.find((candidate) => candidate.name === fieldsParameterName(objectType));
	expect(property?.displayOptions?.show?.objectType).toEqual([objectType]);
	return (property?.options as INodePropertyCollection[])[0].values;
}

const optionValues = (property: INodeProperties | undefined) =>
	((property?.options ?? []) as INodePropertyOptions[]).map((option) => option.value);

describe('Fields to Set offers exactly the fields of the object type', () => {
	it.each(OBJECT_TYPES)('%s', (objectType) => {
		const fieldChoice = entryValues(objectType).find((value) => value.name === 'field');
		const expected = FIXED_FIELDS.filter((field) => field.objectType === objectType).map((field) => field.path);
		if (expected.length === 0) {
			expect(fieldChoice).toBeUndefined();
			return;
		}
		const extra = objectType === 'user' ? [CUSTOM_FIELD, ORGANIZATION_LEVEL] : [CUSTOM_FIELD];
		expect([...optionValues(fieldChoice)].sort()).toEqual([...expected, ...extra].sort());
	});

	it('the desktop broker and virtualization type choices are "Choose…" and the catalogue names, starting at "Choose…"', () => {
		for (const [name, names] of [
			['desktopBroker', Object.keys(DESKTOP_BROKERS)],
			['virtualizationType', Object.keys(VIRTUALIZATION_TYPES)],
		] as const) {
			const shown = entryValues('device').filter((value) => value.name === name);
			expect(shown).toHaveLength(1);
			const [list] = shown;
			const [first, ...rest] = optionValues(list);
			expect(first).toBe(NOT_CHOSEN);
			expect([...rest].sort()).toEqual([...names].sort());
			expect(list.default).toBe(NOT_CHOSEN);
		}
	});

	it('every typed value input is shown only for the fields of its kind', () => {
		const values = entryValues('device');
		const shownFor = (name: string) => values.filter((value) => value.name === name).map((value) => value.displayOptions?.show?.field);
		expect(shownFor('dateValue')).toEqual([['virtualization/last_update']]);
		expect(shownFor('desktopBroker')).toEqual([['virtualization/desktop_broker']]);
		expect(shownFor('virtualizationType')).toEqual([['virtualization/type']]);
	});
});

describe('Identify By', () => {
	it.each(OBJECT_TYPES)('offers the identification kinds of a %s', (objectType) => {
		const property = enrichmentProperties.find(
			(candidate) => candidate.name === 'identifyBy' && candidate.displayOptions?.show?.objectType?.includes(objectType),
		);
		expect(optionValues(property)).toEqual([...IDENTIFICATION_KINDS[objectType]]);
	});

	it('the UPN choice says it needs UPNs collected in clear text', () => {
		const user = enrichmentProperties.find((candidate) => candidate.name === 'identifyBy' && candidate.displayOptions?.show?.objectType?.[0] === 'user');
		const upn = (user?.options as INodePropertyOptions[]).find((option) => option.value === 'upn');
		expect(upn?.description).toMatch(/clear text/);
	});
});
