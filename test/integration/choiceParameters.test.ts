/**
 * Every options parameter (a choice) of every node, found in the node's own description, given by an
 * expression a value its panel does not offer: the node stops before any request (the local server
 * receives nothing, not even the token exchange) with an error naming the parameter, the value and
 * the values it takes (shared/choiceParameter.ts). Before, several choices fell back to a default or
 * went on the wire unchecked. Run on both n8n generations, through n8n-core's engine, poll and
 * webhook contexts.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkEventTrigger } from '../../nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { NexthinkTrigger } from '../../nodes/Nexthink/trigger/NexthinkTrigger.node';
import { serveEventTrigger } from '../helpers/eventTriggerHarness';
import { disposeHarness, nexthinkCredentials, runNode } from '../helpers/harness';
import { pollingTrigger } from '../helpers/pollHarness';

const { startNexthinkServer } = require('../server');
const { send } = require('../server/outbound');

jest.setTimeout(60_000);

const BOGUS = 'no-such-choice';
const BOGUS_EXPRESSION = `={{ "${BOGUS}" }}`;

interface Choice {
	/** Where the value lives: a top-level name, `[collection, name]` or `[fixedCollection, group, name]` (first entry). */
	path: string[];
	label: string;
	values: string[];
	/** n8n takes such a parameter's text as it is, without evaluating it (`noDataExpression`, n8n-workflow's getNodeParameters). */
	noDataExpression: boolean;
}

type Show = Record<string, unknown[] | undefined>;

/** n8n's display rule, for the conditions this package writes: `/name` is the node's root, `name` the siblings. */
function conditionsHold(property: INodeProperties, root: IDataObject, siblings: IDataObject): boolean {
	const value = (key: string) => (key.startsWith('/') ? root[key.slice(1)] : siblings[key]);
	const show = (property.displayOptions?.show ?? {}) as Show;
	const hide = (property.displayOptions?.hide ?? {}) as Show;
	return Object.entries(show).every(([key, allowed]) => (allowed ?? []).includes(value(key))) && !Object.entries(hide).some(([key, denied]) => (denied ?? []).includes(value(key)));
}

/** The choices a node with `parameters` shows, in collections and in the first entry of a fixed collection too. */
function shownChoices(description: INodeTypeDescription, parameters: IDataObject): Choice[] {
	const choices: Choice[] = [];
	const visit = (properties: INodeProperties[], path: string[], siblings: IDataObject) => {
		for (const property of properties) {
			if (!conditionsHold(property, parameters, siblings)) continue;
			if (property.type === 'options' && property.options !== undefined && !['resource', 'operation'].includes(property.name)) {
				choices.push({
					path: [...path, property.name],
					label: property.displayName,
					values: (property.options as INodePropertyOptions[]).map((option) => String(option.value)),
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
	return choices;
}

/** `parameters` with `choice` given a value no panel offers: by an expression, where n8n evaluates one. */
function withBogus(parameters: IDataObject, { path, noDataExpression }: Choice): INodeParameters {
	const copy = structuredClone(parameters);
	const holder =
		path.length === 1 ? copy : path.length === 2 ? ((copy[path[0]] ??= {}) as IDataObject) : ((copy[path[0]] as IDataObject)[path[1]] as IDataObject[])[0];
	holder[path[path.length - 1]] = noDataExpression ? BOGUS : BOGUS_EXPRESSION;
	return copy as INodeParameters;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The one choice reading's message; `listedValues` checks the values it lists. */
const choiceMessage = (choice: Choice) => new RegExp(`"${escaped(choice.label)}" must be ${choice.values.length > 1 ? 'one of ' : ''}".*", got "${BOGUS}"\\.`);

/** The values the message lists, which must be exactly the panel's. */
function listedValues(message: string, choice: Choice): string[] {
	const start = message.indexOf(`"${choice.label}" must be `);
	const end = message.indexOf(`, got "${BOGUS}"`, start);
	return [...message.slice(start + choice.label.length + 2, end).matchAll(/"([^"]*)"/g)].map((match) => match[1]).sort();
}

/** Enrichment's field entries read a name or a number for a broker or a type (enrichment/valueConversion.ts), with their own wording. */
const OWN_WORDING: Record<string, RegExp> = {
	Field: new RegExp(`"${BOGUS}" is not a field of a (device|user)`),
	'Desktop Broker': new RegExp(`virtualization/desktop_broker: "${BOGUS}" is not one of clear, citrix_cvad, .* \\(or 0–7\\)`),
	'Virtualization Type': new RegExp(`virtualization/type: "${BOGUS}" is not one of`),
};

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});
afterAll(async () => {
	await server.close();
	disposeHarness();
});
beforeEach(() => server.clearRequests());

const QUERY = { queryId: '#devices_by_os', queryParameters: { parameter: [{ name: 'os', value: 'Windows 11' }] } };
const SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const ENRICH = { identifyBy: 'name', identificationValue: 'LAPTOP-ZRH-001', mappingMode: 'defineBelow', domain: 'n8n', options: {} };

/** Per node, a valid starting point for each operation (and each branch that shows other choices). */
const RUN_NODES: Array<{ node: string; make: () => any; items?: IDataObject[]; baselines: Record<string, IDataObject> }> = [
	{
		node: 'Nexthink Export',
		make: () => new NexthinkExport(),
		baselines: {
			export: { operation: 'export', ...QUERY, compression: 'GZIP', options: {}, advancedOptions: {} },
			startExport: { operation: 'startExport', ...QUERY, compression: 'GZIP', options: {}, advancedOptions: {} },
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
			'workflow run': {
				resource: 'workflow',
				operation: 'run',
				workflow: { __rl: true, mode: 'list', value: '#repair_teams' },
				workflowApiVersion: 'v2',
				workflowDevices: 'LAPTOP-ZRH-001',
				workflowDeviceIdType: 'name',
				workflowUsers: SID,
				workflowUserIdType: 'sid',
				options: {},
			},
		},
	},
];

describe('a choice given a value its panel does not offer stops the node before any request, naming it', () => {
	for (const { node, make, items, baselines } of RUN_NODES) {
		const description = make().description as INodeTypeDescription;
		const cases = Object.entries(baselines).flatMap(([branch, parameters]) => shownChoices(description, parameters).map((choice) => ({ branch, parameters, choice })));

		it(`${node}: the baselines show every choice of the node`, () => {
			const all = new Set<string>();
			const collect = (properties: INodeProperties[]) => {
				for (const property of properties) {
					if (property.type === 'options' && property.options !== undefined && !['resource', 'operation'].includes(property.name)) all.add(property.displayName);
					if (property.type === 'collection') collect(property.options as INodeProperties[]);
					if (property.type === 'fixedCollection') for (const group of property.options as Array<{ values: INodeProperties[] }>) collect(group.values);
				}
			};
			collect(description.properties);
			expect(new Set(cases.map(({ choice }) => choice.label))).toEqual(all);
		});

		it.each(cases.map((entry) => [`${entry.branch}: ${entry.choice.path.join('.')}`, entry]))(`${node}, %s`, async (_title, { parameters, choice }) => {
			const result = await runNode({
				nodeType: make(),
				parameters: withBogus(parameters, choice),
				items: (items ?? [{}]).map((json) => ({ json })),
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			const message = String(result.error?.message ?? '');
			const own = OWN_WORDING[choice.label];
			if (own !== undefined) {
				expect(message).toMatch(own);
			} else {
				expect(message).toMatch(choiceMessage(choice));
				expect(listedValues(message, choice)).toEqual([...choice.values].sort());
			}
			expect(result.items).toEqual([]);
			expect(server.requests).toEqual([]);
		});
	}
});

describe('the triggers refuse a choice their panel does not offer, starting nothing', () => {
	const triggerDescription = new NexthinkTrigger().description;
	const triggerBaseline: IDataObject = { queryMethod: 'export', parametersInput: 'pairs', ...QUERY, keyColumns: 'device.uid', options: {} };

	it.each(shownChoices(triggerDescription, triggerBaseline).map((choice) => [choice.path.join('.'), choice]))('Nexthink Trigger, %s: the poll fails before any request', async (_title, choice) => {
		const poll = pollingTrigger({ nodeType: new NexthinkTrigger(), parameters: withBogus(triggerBaseline, choice), credentials: { nexthinkApi: nexthinkCredentials(server) } });
		const outcome = await poll.poll();
		expect(outcome.items).toBeNull();
		expect(String(outcome.error?.message)).toMatch(choiceMessage(choice));
		expect(listedValues(String(outcome.error?.message), choice)).toEqual([...choice.values].sort());
		expect(server.requests).toEqual([]);
	});

	const eventDescription = new NexthinkEventTrigger().description;
	const eventBaselines: Record<string, IDataObject> = {
		webhook: { mode: 'webhook', authentication: 'connectorCredential', eventTable: 'auto', options: {} },
		workflowCall: { mode: 'workflowCall', authentication: 'connectorCredential', responseMode: 'lastNode', options: {} },
	};
	const eventCases = Object.entries(eventBaselines).flatMap(([branch, parameters]) =>
		shownChoices(eventDescription, parameters)
			// the setup help lists what to copy; its value is never read
			.filter((choice) => choice.values.length > 1)
			.map((choice) => [`${branch}: ${choice.path.join('.')}`, parameters, choice] as const),
	);

	it('the Event Trigger baselines show every choice it reads', () => {
		expect(new Set(eventCases.map(([, , choice]) => choice.label))).toEqual(new Set(['Channel', 'Authentication', 'Event Table', 'Respond']));
	});

	it.each(eventCases)('Nexthink Event Trigger, %s: a call is answered 500 with the choice named, and nothing starts', async (_title, parameters, choice) => {
		const trigger = await serveEventTrigger({ parameters: withBogus(parameters, choice), credentials: { authType: 'bearer', token: 'nx-choice-token-3e8c1d' } });
		try {
			const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: 'nx-choice-token-3e8c1d' }, body: '{}' });
			expect(answer.status).toBe(500);
			expect(answer.json).toMatchObject({ status: 'error', error: 'configuration', message: expect.stringMatching(choiceMessage(choice)) });
			expect(listedValues((answer.json as { message: string }).message, choice)).toEqual([...choice.values].sort());
			expect(trigger.executions).toEqual([]);
		} finally {
			await trigger.close();
		}
	});
});
