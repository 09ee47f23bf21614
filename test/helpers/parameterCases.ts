/**
 * Every parameter of a given type that a node shows for a set of values, found in the node's own
 * description, and a valid set of values per operation to start from: the sweeps of
 * test/integration/choiceParameters.test.ts and numberParameters.test.ts give each parameter a wrong
 * value and check that the node stops before any request, naming it.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription, NodePropertyTypes } from 'n8n-workflow';

import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';

export interface ShownParameter {
	/** Where the value lives: a top-level name, `[collection, name]` or `[fixedCollection, group, name]` (first entry). */
	path: string[];
	property: INodeProperties;
	/** An options parameter's values. */
	values: string[];
	/** n8n takes such a parameter's text as it is, without evaluating it (`noDataExpression`, n8n-workflow's getNodeParameters). */
	noDataExpression: boolean;
}

type Conditions = Record<string, unknown[] | undefined>;

/** n8n's display rule, for the conditions this package writes: `/name` is the node's root, `name` the siblings. */
function conditionsHold(property: INodeProperties, root: IDataObject, siblings: IDataObject): boolean {
	const value = (key: string) => (key.startsWith('/') ? root[key.slice(1)] : siblings[key]);
	const show = (property.displayOptions?.show ?? {}) as Conditions;
	const hide = (property.displayOptions?.hide ?? {}) as Conditions;
	return Object.entries(show).every(([key, allowed]) => (allowed ?? []).includes(value(key))) && !Object.entries(hide).some(([key, denied]) => (denied ?? []).includes(value(key)));
}

const ROUTING = ['resource', 'operation'];

/** The parameters of `type` a node with `parameters` shows, in collections and in the first entry of a fixed collection too. */
export function shownParameters(description: INodeTypeDescription, parameters: IDataObject, type: NodePropertyTypes): ShownParameter[] {
	const shown: ShownParameter[] = [];
	const visit = (properties: INodeProperties[], path: string[], siblings: IDataObject) => {
		for (const property of properties) {
			if (!conditionsHold(property, parameters, siblings)) continue;
			if (property.type === type && !ROUTING.includes(property.name) && (type !== 'options' || property.options !== undefined)) {
				shown.push({
					path: [...path, property.name],
					property,
					values: ((property.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value)),
					noDataExpression: property.noDataExpression === true,
				});
			}
			if (property.type === 'collection' && siblings[property.name] !== undefined) {
				visit(property.options as INodeProperties[], [...path, property.name], siblings[property.name] as IDataObject);
			}
			if (property.type === 'fixedCollection' && siblings[property.name] !== undefined) {
				for (const group of property.options as Array<{ name: string; values: INodeProperties[] }>) {
					const first = ((siblings[property.name] as IDataObject)[group.name] as IDataObject[] | undefined)?.[0];
					if (first !== undefined) visit(group.values, [...path, property.name, group.name], first);
				}
			}
		}
	};
	visit(description.properties, [], parameters);
	return shown;
}

/** The display names of every parameter of `type` the node has, wherever it is. */
export function everyParameterName(description: INodeTypeDescription, type: NodePropertyTypes): Set<string> {
	const names = new Set<string>();
	const collect = (properties: INodeProperties[]) => {
		for (const property of properties) {
			if (property.type === type && !ROUTING.includes(property.name) && (type !== 'options' || property.options !== undefined)) names.add(property.displayName);
			if (property.type === 'collection') collect(property.options as INodeProperties[]);
			if (property.type === 'fixedCollection') for (const group of property.options as Array<{ values: INodeProperties[] }>) collect(group.values);
		}
	};
	collect(description.properties);
	return names;
}

/** `parameters` with `value` at `path`: by an expression (`={{ (…) }}` of its JSON), unless n8n takes no expression there. */
export function withValue(parameters: IDataObject, { path, noDataExpression }: ShownParameter, value: unknown): INodeParameters {
	const copy = structuredClone(parameters);
	const holder =
		path.length === 1 ? copy : path.length === 2 ? ((copy[path[0]] ??= {}) as IDataObject) : ((copy[path[0]] as IDataObject)[path[1]] as IDataObject[])[0];
	holder[path[path.length - 1]] = noDataExpression ? (value as never) : `={{ (${JSON.stringify(value)}) }}`;
	return copy as INodeParameters;
}

const QUERY = { queryId: '#devices_by_os', queryParameters: { parameter: [{ name: 'os', value: 'Windows 11' }] } };
const SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const C1 = 'e0000000-0000-4000-8000-000000000001';
const ENRICH = { identifyBy: 'name', identificationValue: 'LAPTOP-ZRH-001', mappingMode: 'defineBelow', domain: 'n8n', options: {} };
const locator = (value: string) => ({ __rl: true, mode: 'list', value });

export interface RunNodeCases {
	node: string;
	make: () => any;
	items?: IDataObject[];
	/** A valid starting point for each operation (and each branch that shows other parameters). */
	baselines: Record<string, IDataObject>;
}

export const RUN_NODES: RunNodeCases[] = [
	{
		node: 'Nexthink Export',
		make: () => new NexthinkExport(),
		baselines: {
			export: { operation: 'export', ...QUERY, compression: 'GZIP', options: {}, advancedOptions: {} },
			startExport: { operation: 'startExport', ...QUERY, compression: 'GZIP', options: {}, advancedOptions: {} },
			getStatus: { operation: 'getStatus', exportId: 'x-1', options: {} },
			// both sources filled in: n8n requires every field an unknown Results Source could show
			'downloadResults (export ID)': { operation: 'downloadResults', resultsSource: 'exportId', exportId: 'x-1', resultsFileUrl: 'https://example.com/results.csv', options: {}, advancedOptions: {} },
			'downloadResults (URL)': { operation: 'downloadResults', resultsSource: 'url', exportId: 'x-1', resultsFileUrl: 'https://example.com/results.csv', options: {}, advancedOptions: {} },
			executeQuery: { operation: 'executeQuery', ...QUERY, options: { responseFormat: 'csv' }, advancedOptions: {} },
		},
	},
	{
		node: 'Nexthink Enrichment',
		make: () => new NexthinkEnrichment(),
		items: [{ '#tier': 'gold' }],
		baselines: {
			'device, custom field': { objectType: 'device', ...ENRICH, deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'gold' }] } },
			'device, desktop broker': { objectType: 'device', ...ENRICH, deviceFields: { fieldValues: [{ field: 'virtualization/desktop_broker', desktopBroker: 'citrix_daas' }] } },
			'device, virtualization type': { objectType: 'device', ...ENRICH, deviceFields: { fieldValues: [{ field: 'virtualization/type', virtualizationType: 'pooled' }] } },
			'user, custom field': { objectType: 'user', ...ENRICH, identifyBy: 'sid', identificationValue: SID, userFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'gold' }] } },
			'binary, auto-mapped': { objectType: 'binary', ...ENRICH, identifyBy: 'uid', identificationValue: 'b0000000-0000-4000-8000-000000000001', mappingMode: 'autoMapInputData', options: {} },
		},
	},
	{
		node: 'Nexthink Actions',
		make: () => new NexthinkActions(),
		baselines: {
			'remote action get many': { resource: 'remoteAction', operation: 'getMany', returnAll: false, limit: 5, filters: {}, options: {} },
			'remote action run': { resource: 'remoteAction', operation: 'run', remoteAction: locator('#clear_teams_cache'), collectorUids: C1, waitForResults: true, statusQueryId: '#ra_status', options: {} },
			'workflow get many': { resource: 'workflow', operation: 'getMany', returnAll: false, limit: 5, filters: {}, options: {} },
			'workflow run': {
				resource: 'workflow',
				operation: 'run',
				workflow: locator('#repair_teams'),
				workflowApiVersion: 'v2',
				workflowDevices: 'LAPTOP-ZRH-001',
				workflowDeviceIdType: 'name',
				workflowUsers: SID,
				workflowUserIdType: 'sid',
				waitForResults: true,
				statusQueryId: '#wf_status',
				options: {},
			},
			'campaign trigger': { resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: SID, campaignExpiresInMinutes: 60, waitForResults: true, statusQueryId: '#campaign_status', options: {} },
			'device delete': { resource: 'device', operation: 'delete', deviceUid: 'd0000000-0000-4000-8000-000000000005', deviceName: 'SRV-FRA-001', maxDevicesPerRun: 5, preview: true, options: {} },
		},
	},
];

/** The Nexthink Trigger's parameters to start from. */
export const TRIGGER_BASELINE: IDataObject = { queryMethod: 'export', parametersInput: 'pairs', ...QUERY, keyColumns: 'device.uid', options: {} };

/** The Nexthink Event Trigger's, per channel. */
export const EVENT_TRIGGER_BASELINES: Record<string, IDataObject> = {
	webhook: { mode: 'webhook', authentication: 'connectorCredential', eventTable: 'auto', dedupe: true, dedupeWindowMinutes: 60, options: {} },
	dataExporter: { mode: 'dataExporter', authentication: 'connectorCredential', options: {} },
	workflowCall: { mode: 'workflowCall', authentication: 'connectorCredential', responseMode: 'lastNode', options: {} },
};
