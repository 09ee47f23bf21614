/**
 * The Export node under each of n8n's three "On Error" settings, through n8n-core's engine over
 * real HTTP: every input item gets exactly one outcome, on the right output, paired with its input.
 * Item 0 succeeds and item 1 fails at Nexthink (unknown query or export ID, HTTP 404).
 *
 * n8n moves an item to the error output only when the item carries `error`, or when its JSON has
 * no keys but `error`, `message` and `details` (`handleNodeErrorOutput` in n8n-core's
 * workflow-execute); an item `{ error, description }` stays on the success output. The node sends
 * a failed item there as `{ error: { message, description } }` and n8n adds the input's JSON.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { disposeHarness, N8N_CORE_VERSION, nexthinkCredentials, runNode, type RunNodeOptions } from '../../helpers/harness';
import { FEW_N8N_RUNS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer } = require('../../server');
const { fetchToken, runExport } = require('../../server/client');

let server: any;
let exportId: string;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#two_rows', header: ['device.name'], rows: [['PC-1'], ['PC-2']], completeAfterPolls: 0 });
	const token = await fetchToken(server);
	exportId = (await runExport(server, token, { queryId: '#two_rows' })).exportId;
});
afterAll(async () => {
	await server.close();
	disposeHarness();
});

const QUERY_ITEMS = [{ json: { q: 'two_rows' } }, { json: { q: 'no_such_query' } }];
const EXPORT_ID_ITEMS = () => [{ json: { id: exportId } }, { json: { id: 'no-such-export' } }];

const OPERATIONS: Array<[string, Record<string, unknown>, () => INodeExecutionData[]]> = [
	['Export', { operation: 'export', queryId: '={{ $json.q }}', advancedOptions: { firstPollSeconds: 0 } }, () => QUERY_ITEMS],
	['Start Export', { operation: 'startExport', queryId: '={{ $json.q }}' }, () => QUERY_ITEMS],
	['Get Status', { operation: 'getStatus', exportId: '={{ $json.id }}' }, EXPORT_ID_ITEMS],
	['Download Results', { operation: 'downloadResults', exportId: '={{ $json.id }}' }, EXPORT_ID_ITEMS],
	['Execute Query', { operation: 'executeQuery', queryId: '={{ $json.q }}' }, () => QUERY_ITEMS],
];

function run(parameters: Record<string, unknown>, items: INodeExecutionData[], onError: RunNodeOptions['onError']) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: parameters as never,
		items,
		onError,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
	});
}

const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

describe(`Export node error handling on n8n-core ${N8N_CORE_VERSION}`, () => {
	describe.each(OPERATIONS)('%s', (_name, parameters, items) => {
		it(
			'Stop Workflow: the failed item stops the workflow with a message',
			async () => {
				const { error } = await run(parameters, items(), 'stopWorkflow');
				expect(error?.message).toMatch(/404|no export|no NQL API query|not found/i);
			},
			FEW_N8N_RUNS_TIMEOUT_MS,
		);

		it(
			'Continue: the successful item, then one error item paired with item 1, on the one output',
			async () => {
				const { error, outputs } = await run(parameters, items(), 'continueRegularOutput');
				expect(error).toBeUndefined();
				expect(outputs).toHaveLength(1);
				const failed = outputs[0].filter((item) => item.json.error !== undefined);
				expect(failed.map(pairedIndex)).toEqual([1]);
				expect(outputs[0].filter((item) => item.json.error === undefined).every((item) => pairedIndex(item) === 0)).toBe(true);
				expect(outputs[0].filter((item) => item.json.error === undefined).length).toBeGreaterThan(0);
				expect(failed[0].json.description).toEqual(expect.stringMatching(/\S/));
			},
			FEW_N8N_RUNS_TIMEOUT_MS,
		);

		it(
			'Continue (using error output): successes on the main output, the failure on the error output with a message and a description',
			async () => {
				const { error, outputs } = await run(parameters, items(), 'continueErrorOutput');
				expect(error).toBeUndefined();
				expect(outputs).toHaveLength(2);
				const [success, failure] = outputs;
				expect(success.length).toBeGreaterThan(0);
				expect(success.every((item) => pairedIndex(item) === 0 && item.json.error === undefined)).toBe(true);
				expect(failure).toHaveLength(1);
				expect(pairedIndex(failure[0])).toBe(1);
				// the one shape of a failed item on the error output (shared/runItems.ts), beside the input's JSON
				const failed = failure[0].json.error as { message: string; description?: string };
				expect(failed.message).toEqual(expect.stringMatching(/^Item 1: \S/));
				expect(failed.description).toEqual(expect.stringMatching(/\S/));
				expect(failure[0].json).toMatchObject(items()[1].json);
			},
			FEW_N8N_RUNS_TIMEOUT_MS,
		);
	});
});
