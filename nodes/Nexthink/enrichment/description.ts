/** The Enrichment node's parameters: one "Fields to Set" list per object type, from the field catalogue. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { enrichmentToolDescriptionProperty } from '../shared/toolDescriptions';
import { DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE } from './api';
import { FIXED_FIELDS, IDENTIFICATION_KINDS, OBJECT_TYPES, type IdentificationKind, type ObjectType } from './fieldCatalogue';
import { CUSTOM_FIELD, NOT_CHOSEN, ORGANIZATION_LEVEL } from './itemPreparation';
import { allowWritesOption, notice, OPTIONS_COLLECTION, requestTimeoutOption } from '../shared/optionFields';
import { upperFirst } from '../shared/wording';

export const MAPPING_MODES = { defineBelow: 'defineBelow', autoMapInputData: 'autoMapInputData' } as const;
export const UNMAPPED_KEY_HANDLING = { ignore: 'ignore', report: 'report' } as const;
/** One batch of up to 10,000 objects is written synchronously; five minutes leaves ample room. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 300;

/** Parameter holding the "Fields to Set" list of an object type; entries are under `fieldValues`. */
export function fieldsParameterName(objectType: ObjectType): string {
	return `${objectType}Fields`;
}

/** Object Type's line for each object type, in the list's (alphabetical) order. */
const OBJECT_TYPE_DESCRIPTIONS: Record<ObjectType, string> = {
	binary: 'Executable binaries; manual custom fields only',
	device: 'Custom fields, configuration tag and virtualization fields',
	package: 'Installed packages; manual custom fields only',
	user: 'Custom fields, Entra ID fields and organization levels',
};

const objectTypeProperty: INodeProperties = {
	displayName: 'Object Type',
	name: 'objectType',
	type: 'options',
	noDataExpression: true,
	options: Object.entries(OBJECT_TYPE_DESCRIPTIONS).map(([value, description]) => ({ name: upperFirst(value), value, description })),
	default: 'device',
	description: 'The kind of Nexthink object to enrich',
};

/** Each identification kind's label (after the object type's: "User SID") and line in Identify By. */
const IDENTIFICATIONS: Record<IdentificationKind, [label: string, description: string]> = {
	name: ['Name', 'The device name as Nexthink shows it'],
	sid: ['SID', 'The Windows security identifier, e.g. S-1-5-21-…'],
	uid: ['UID', 'The Nexthink UID, a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
	upn: ['UPN', 'The user principal name. Only works where Nexthink collects UPNs in clear text (not anonymized).'],
};

/** One Identify By per object type: its kinds in the catalogue's order, the first one the default. */
const identifyByProperties: INodeProperties[] = OBJECT_TYPES.map((objectType) => {
	const [firstKind] = IDENTIFICATION_KINDS[objectType];
	return {
		displayName: 'Identify By',
		name: 'identifyBy',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { objectType: [objectType] } },
		options: IDENTIFICATION_KINDS[objectType].map((kind) => ({
			name: `${upperFirst(objectType)} ${IDENTIFICATIONS[kind][0]}`,
			value: kind,
			description: IDENTIFICATIONS[kind][1],
		})),
		default: firstKind,
		description: `Which ${objectType} field the identification value below is matched against`,
	};
});

const identificationValueProperty: INodeProperties = {
	displayName: 'Identification Value',
	name: 'identificationValue',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json["device.name"] }}',
	description:
		'The value that identifies the object, usually an expression over the input item. UIDs must be UUIDs. An item whose value is empty fails.',
};

const mappingModeProperty: INodeProperties = {
	displayName: 'Mapping Mode',
	name: 'mappingMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Map Each Field',
			value: MAPPING_MODES.defineBelow,
			description: 'Pick each field to set and give its value',
		},
		{
			name: 'Map Automatically From Input',
			value: MAPPING_MODES.autoMapInputData,
			description: 'Input keys that name a field become fields, e.g. device.#tier, #tier or virtualization.desktop_pool',
		},
	],
	default: 'defineBelow',
};

const autoMapNotice = notice(
	'autoMapNotice',
	'Input keys that name a field of the object type are set: the API name (device/device/#tier), the Export column name (device.#tier, device.virtualization.desktop_pool, user.ad.department) or a short form (#tier, virtualization.desktop_pool, ad.department). Null values are skipped; an empty string clears the field.',
	{ show: { mappingMode: [MAPPING_MODES.autoMapInputData] } },
);

const textValue: INodeProperties = {
	displayName: 'Value',
	name: 'value',
	type: 'string',
	default: '',
	description: 'The text to write. An empty value clears the field in Nexthink.',
};

const customFieldIdProperty: INodeProperties = {
	displayName: 'Custom Field ID',
	name: 'customFieldId',
	type: 'string',
	default: '',
	placeholder: 'e.g. #tier',
	description: 'NQL ID of a manual custom field, with or without the leading #',
};

function fieldEntryValues(objectType: ObjectType): INodeProperties[] {
	const fixed = FIXED_FIELDS.filter((field) => field.objectType === objectType);
	if (fixed.length === 0) return [{ ...customFieldIdProperty }, textValue];

	const options: INodePropertyOptions[] = [
		{ name: 'Custom Field', value: CUSTOM_FIELD, description: 'A manual custom field, by its NQL ID' },
		...fixed.map((field) => ({ name: field.displayName, value: field.path, description: field.name })),
	];
	if (objectType === 'user') {
		options.push({ name: 'Organization Level', value: ORGANIZATION_LEVEL, description: 'An organization level, by its NQL ID' });
	}
	options.sort((a, b) => a.name.localeCompare(b.name));

	const pathsOfKind = (kind: string) => fixed.filter((field) => field.kind === kind).map((field) => field.path);
	const dateFields = pathsOfKind('dateTime');
	const brokerFields = pathsOfKind('desktopBroker');
	const typeFields = pathsOfKind('virtualizationType');

	const values: INodeProperties[] = [
		{ displayName: 'Field', name: 'field', type: 'options', options, default: CUSTOM_FIELD },
		{ ...customFieldIdProperty, displayOptions: { show: { field: [CUSTOM_FIELD] } } },
	];
	if (objectType === 'user') {
		values.push({
			displayName: 'Organization Level ID',
			name: 'organizationLevel',
			type: 'string',
			default: '',
			placeholder: 'e.g. #region',
			description: 'NQL ID of the organization level, with or without the leading #',
			displayOptions: { show: { field: [ORGANIZATION_LEVEL] } },
		});
	}
	values.push({ ...textValue, displayOptions: { hide: { field: [...dateFields, ...brokerFields, ...typeFields] } } });
	values.push({
		displayName: 'Date',
		name: 'dateValue',
		type: 'dateTime',
		default: '',
		description:
			"Sent as ISO 8601 UTC with milliseconds; a date without an offset is read in the workflow's time zone. An empty value clears the field in Nexthink.",
		displayOptions: { show: { field: dateFields } },
	});
	if (brokerFields.length > 0) values.push({ ...desktopBrokerProperty, displayOptions: { show: { field: brokerFields } } });
	if (typeFields.length > 0) values.push({ ...virtualizationTypeProperty, displayOptions: { show: { field: typeFields } } });
	return values;
}

/** A list that starts at "Choose…" (docs/decisions.md, "Desktop Broker and Virtualization Type"). */
function chosenValueProperty(name: string, displayName: string, noun: string, description: string, options: INodePropertyOptions[]): INodeProperties {
	const notChosen = { name: `- Choose a ${noun} -`, value: NOT_CHOSEN, description: `No ${noun.toLowerCase()} chosen yet: the item fails until one is` };
	return { displayName, name, type: 'options', options: [notChosen, ...options], default: NOT_CHOSEN, description };
}

const desktopBrokerProperty = chosenValueProperty('desktopBroker', 'Desktop Broker', 'Broker', 'The desktop broker. In an expression, use the name (e.g. citrix_daas) or its number (0 clears, 1–7).', [
	{ name: 'AWS AppStream', value: 'aws_appstream' },
	{ name: 'AWS WorkSpaces', value: 'aws_workspace' },
	{ name: 'Azure Virtual Desktop', value: 'azure_virtual_desktops' },
	{ name: 'Citrix CVAD', value: 'citrix_cvad' },
	{ name: 'Citrix DaaS', value: 'citrix_daas' },
	{ name: 'Clear', value: 'clear', description: 'Removes the desktop broker' },
	{ name: 'Horizon On-Premises', value: 'horizon_on_prem' },
	{ name: 'Windows 365', value: 'windows_365' },
]);

const virtualizationTypeProperty = chosenValueProperty('virtualizationType', 'Virtualization Type', 'Type', 'The virtualization type. In an expression, use the name (shared, personal, pooled) or its number (1–3); an empty string clears it.', [
	{ name: 'Personal', value: 'personal' },
	{ name: 'Pooled', value: 'pooled' },
	{ name: 'Shared', value: 'shared' },
]);

function fieldsProperty(objectType: ObjectType): INodeProperties {
	return {
		displayName: 'Fields to Set',
		name: fieldsParameterName(objectType),
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { objectType: [objectType], mappingMode: [MAPPING_MODES.defineBelow] } },
		description: `The ${objectType} fields to write; each value may be an expression over the input item`,
		options: [{ displayName: 'Field', name: 'fieldValues', values: fieldEntryValues(objectType) }],
	};
}

const domainProperty: INodeProperties = {
	displayName: 'Domain',
	name: 'domain',
	type: 'string',
	required: true,
	default: 'n8n',
	description:
		'Label Nexthink records with the enrichment, for tracking where values came from. One value for the whole run: an expression must give every item the same text.',
};

const optionsProperty: INodeProperties = {
	...OPTIONS_COLLECTION,
	options: [
		allowWritesOption('Whether an AI agent that runs this node as a tool may write to Nexthink. Off: as a tool the node only validates (like Validate Only), sends nothing, and its output tells the model that nothing was written. Has no effect when the node runs in a workflow.'),
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE, numberPrecision: 0 },
			default: DEFAULT_BATCH_SIZE,
			description: 'How many items go into one request (at most 10,000). Requests are sent one after the other.',
		},
		requestTimeoutOption(DEFAULT_REQUEST_TIMEOUT_SECONDS, 'Longest time one request (one batch) may take before it is cut off and retried; a batch that still gets no answer fails with a timeout'),
		{
			displayName: 'Unmapped Input Keys',
			name: 'unmappedKeys',
			type: 'options',
			options: [
				{ name: 'Ignore', value: UNMAPPED_KEY_HANDLING.ignore, description: 'Keys that name no field are left out silently' },
				{
					name: 'List in Output',
					value: UNMAPPED_KEY_HANDLING.report,
					description: "Keys that name no field are listed in the item's outcome (unmappedKeys)",
				},
			],
			default: 'ignore',
			displayOptions: { show: { '/mappingMode': [MAPPING_MODES.autoMapInputData] } },
		},
		{
			displayName: 'Validate Only',
			name: 'validateOnly',
			type: 'boolean',
			default: false,
			description: 'Whether to check every item and report its outcome without sending anything to Nexthink',
		},
	],
};

/** Shown only in the tool variant (see shared/toolMode.ts): what the agent can and cannot do. */
const toolNotice = notice(
	'toolNotice',
	'As an AI agent\'s tool this node only validates and writes nothing, unless "Allow Writes When Used as a Tool" is on under Options. The model sees only the Tool Description and the description in each $fromAI() placeholder: describe every value it fills, e.g. {{ $fromAI(\'deviceName\', \'Name of the Nexthink device to update, as shown in Nexthink\', \'string\') }}.',
	{ show: { '@tool': [true] } },
);

export const enrichmentProperties: INodeProperties[] = [
	toolNotice,
	enrichmentToolDescriptionProperty,
	objectTypeProperty,
	...identifyByProperties,
	identificationValueProperty,
	mappingModeProperty,
	autoMapNotice,
	...OBJECT_TYPES.map(fieldsProperty),
	domainProperty,
	optionsProperty,
];
