/**
 * A failed item has one shape in every node (shared/runItems.ts): on the error output its JSON is
 * the input item's JSON with `error: { message: "Item N…", … }`, paired with its input, whether
 * the node runs item by item (Export, Get Remote Action) or checks and sends items together
 * (Enrichment, Run Remote Action), and whether the item failed its checks or at Nexthink.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { disposeHarness, N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../helpers/harness';
import { FEW_N8N_RUNS_TIMEOUT_MS } from '../helpers/timeouts';
import { deviceFields } from './enrichment/helpers';

const { startNexthinkServer } = require('../server');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#two_rows', header: ['device.name'], rows: [['PC-1'], ['PC-2']], completeAfterPolls: 0 });
});
afterAll(async () => {
	await server.close();
	disposeHarness();
});

const C1 = 'e0000000-0000-4000-8000-000000000001';

// node, parameters, then the good item 0 and the failing item 1; each item also carries `tag`
const CASES: Array<[string, () => INodeType, INodeParameters, IDataObject, IDataObject]> = [
	['Export, Start Export (item by item, refused by Nexthink)', () => new NexthinkExport(), { operation: 'startExport', queryId: '={{ $json.q }}' }, { q: 'two_rows' }, { q: 'no_such_query' }],
	[
		'Actions, Get Remote Action (item by item, refused by Nexthink)',
		() => new NexthinkActions(),
		{ resource: 'remoteAction', operation: 'get', remoteAction: { __rl: true, mode: 'id', value: '={{ $json.ra }}' } },
		{ ra: '#restart_service' },
		{ ra: '#no_such_action' },
	],
	[
		'Actions, Run Remote Action (together, a bad input)',
		() => new NexthinkActions(),
		{
			resource: 'remoteAction',
			operation: 'run',
			remoteAction: { __rl: true, mode: 'list', value: '#restart_service' },
			collectorUids: '={{ $json.collector }}',
			scriptInputs: { mappingMode: 'defineBelow', value: { ServiceName: 'Spooler', StartType: 'Manual' }, matchingColumns: [], schema: [] },
			options: {},
		},
		{ collector: C1 },
		{ collector: 'LAPTOP-42' },
	],
	[
		'Enrichment (together, a bad input)',
		() => new NexthinkEnrichment(),
		deviceFields([{ field: 'customField', customFieldId: '#tier', value: 'gold' }], { domain: 'n8n', options: { validateOnly: true } }),
		{ name: 'PC-1' },
		{ name: '' },
	],
];

const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

describe(`a failed item has one shape on n8n-core ${N8N_CORE_VERSION}`, () => {
	it.each(CASES)(
		'%s: on the error output, the input JSON with error.message naming the item',
		async (_name, nodeType, parameters, good, bad) => {
			const { error, outputs } = await runNode({
				nodeType: nodeType(),
				parameters,
				items: [{ json: { ...good, tag: 'first' } }, { json: { ...bad, tag: 'second' } }],
				onError: 'continueErrorOutput',
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			expect(error).toBeUndefined();
			const [success, failure] = outputs;
			expect(success.length).toBeGreaterThan(0);
			expect(success.every((item) => pairedIndex(item) === 0)).toBe(true);
			expect(failure).toHaveLength(1);
			expect(pairedIndex(failure[0])).toBe(1);
			expect(failure[0].json).toMatchObject({ ...bad, tag: 'second' });
			expect(failure[0].json.error).toEqual(expect.objectContaining({ message: expect.stringMatching(/^Item 1\b/) }));
		},
		FEW_N8N_RUNS_TIMEOUT_MS,
	);
});
