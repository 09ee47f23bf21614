/**
 * Both nodes as an AI agent's tool, through n8n-core's own tool machinery
 * (`createNodeAsTool`, a supply-data context, the `$fromAI()` schema) on both n8n generations, over
 * real HTTP against the local API server: what goes back to the model is bounded by rows and by
 * size with a note on what was left out, and Enrichment writes only when the author allowed it.
 */
import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { EXPORT_TOOL_DESCRIPTIONS } from '../../nodes/Nexthink/shared/toolDescriptions';
import { runAsAgentTool } from '../helpers/agentTool';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../helpers/localServer';

const { startNexthinkServer } = require('../server');

const ENRICHMENT_PATH = '/api/v1/enrichment/data/fields';
const WIDE_TEXT = 'x'.repeat(1000);

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.inventory.addDevice({ name: 'PC-1' });
	server.inventory.addDevice({ name: 'PC-2' });
	const devices = (count: number) => Array.from({ length: count }, (_, i) => [`PC-${String(i).padStart(3, '0')}`, 'Windows 11']);
	server.addQuery({ id: '#devices_200', header: ['device.name', 'device.os'], rows: () => devices(200), completeAfterPolls: 0 });
	server.addQuery({ id: '#devices_20', header: ['device.name', 'device.os'], rows: () => devices(20), completeAfterPolls: 0 });
	// 100 rows of about 1 KB of JSON each
	server.addQuery({
		id: '#wide_rows',
		header: ['device.name', 'device.note'],
		rows: () => Array.from({ length: 100 }, (_, i) => [`PC-${i}`, WIDE_TEXT]),
		completeAfterPolls: 0,
	});
	server.addQuery({
		id: '#devices_by_os',
		header: ['device.name', 'device.os'],
		parameters: ['os'],
		rows: (p: any) => [['PC-9', p.os]],
		completeAfterPolls: 0,
	});
});
localServerHooks(() => server);

const credentials = () => ({ nexthinkApi: nexthinkCredentials(server) });
const enrichmentCalls = () => server.requests.filter((r: any) => r.method === 'POST' && r.path === ENRICHMENT_PATH);

function exportTool(parameters: Record<string, unknown>, toolArguments: Record<string, unknown> = {}) {
	return runAsAgentTool({ nodeType: new NexthinkExport(), parameters: parameters as never, toolArguments, credentials: credentials() });
}

/** The model's answer text, parsed: the JSON of every output item. */
function answerOf(result: { answer?: string; error?: string }): any[] {
	if (result.answer === undefined) throw new Error(`the tool call failed: ${result.error}`);
	return JSON.parse(result.answer);
}

describe(`Nexthink Export as an agent's tool on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('tells the model the tool\'s purpose and each $fromAI parameter, and runs with the model\'s values', async () => {
		const result = await exportTool(
			{
				operation: 'export',
				queryId: "={{ $fromAI('queryId', 'ID of a stored Nexthink NQL query, e.g. devices_by_os', 'string') }}",
				parametersInput: 'json',
				queryParametersJson: "={{ JSON.stringify({ os: $fromAI('os', 'Operating system to match, e.g. Windows 11', 'string') }) }}",
				advancedOptions: FAST_WAIT,
			},
			{ queryId: 'devices_by_os', os: 'macOS 15' },
		);
		// the node's own Tool Description for the operation (shared/toolDescriptions.ts), not n8n's automatic one
		expect(result.tool.description).toBe(EXPORT_TOOL_DESCRIPTIONS.export);
		expect(result.tool.parameters).toEqual({
			queryId: { type: 'ZodString', description: 'ID of a stored Nexthink NQL query, e.g. devices_by_os' },
			os: { type: 'ZodString', description: 'Operating system to match, e.g. Windows 11' },
		});
		expect(answerOf(result)).toEqual([{ 'device.name': 'PC-9', 'device.os': 'macOS 15' }]);
	});

	it('gives at most Max Rows When Used as a Tool rows, with a note first that says more rows exist and how to get them', async () => {
		const rows = answerOf(await exportTool({ operation: 'export', queryId: 'devices_200', options: { maxRowsAsTool: 5 }, advancedOptions: FAST_WAIT }));
		expect(rows).toHaveLength(6);
		expect(rows[0]).toEqual({
			nexthinkToolNote: expect.stringContaining('only the first 5 rows of the export of #devices_200 are shown (it has at least 6)'),
			rowsShown: 5,
			rowsLeftOut: 0,
			moreRowsNotCounted: true,
		});
		expect(rows[0].nexthinkToolNote).toContain('"Max Rows When Used as a Tool"');
		expect(rows[0].nexthinkToolNote).toContain('Output: File');
		expect(rows.slice(1).map((row) => row['device.name'])).toEqual(['PC-000', 'PC-001', 'PC-002', 'PC-003', 'PC-004']);
	});

	it('bounds the answer by Max Output Size When Used as a Tool, and says how many rows were left out', async () => {
		const result = await exportTool({ operation: 'export', queryId: 'wide_rows', options: { maxRowsAsTool: 100, maxOutputKBAsTool: 8 }, advancedOptions: FAST_WAIT });
		const rows = answerOf(result);
		expect(Buffer.byteLength(result.answer!)).toBeLessThanOrEqual(8 * 1024);
		const shown = rows.length - 1;
		expect(shown).toBeGreaterThanOrEqual(6);
		expect(rows[0]).toEqual({
			nexthinkToolNote: expect.stringContaining(`only ${shown} of 100 rows`),
			rowsShown: shown,
			rowsLeftOut: 100 - shown,
			moreRowsNotCounted: false,
		});
		expect(rows[0].nexthinkToolNote).toContain('limited to 8 KB of JSON ("Max Output Size When Used as a Tool (KB)")');
		expect(rows[1]).toEqual({ 'device.name': 'PC-0', 'device.note': WIDE_TEXT });
	});

	it('bounds Download Results too: note first, rows, then the export metadata with the rows actually given', async () => {
		const started = await runNode({
			nodeType: new NexthinkExport(),
			parameters: { operation: 'startExport', queryId: 'wide_rows', compression: 'NONE' } as never,
			credentials: credentials(),
		});
		const exportId = started.items[0].json.exportId as string;
		const result = await exportTool({
			operation: 'downloadResults',
			exportId: "={{ $fromAI('exportId', 'Export ID from Start Export', 'string') }}",
			options: { output: 'rowsAndFile', includeMetadata: 'separateItem', maxOutputKBAsTool: 6 },
		}, { exportId });
		const items = answerOf(result);
		expect(Buffer.byteLength(result.answer!)).toBeLessThanOrEqual(6 * 1024);
		const shown = items.length - 2;
		// the default row limit (50) stopped the reading; of those 50, the size limit kept `shown`
		expect(items[0]).toMatchObject({ rowsShown: shown, rowsLeftOut: 50 - shown, moreRowsNotCounted: true });
		expect(items[0].nexthinkToolNote).toContain(`only the first ${shown} rows of this export are shown (it has at least 51)`);
		expect(items[0].nexthinkToolNote).toContain('at most 50 rows ("Max Rows When Used as a Tool") and its output is limited to 6 KB');
		expect(items[1]).toEqual({ 'device.name': 'PC-0', 'device.note': WIDE_TEXT });
		expect(items[items.length - 1]).toMatchObject({ exportId, queryId: null, rowCount: shown, truncated: false, moreRowsAvailable: true });
	});

	it('adds no note when every row fits', async () => {
		const rows = answerOf(await exportTool({ operation: 'export', queryId: 'devices_20', advancedOptions: FAST_WAIT }));
		expect(rows).toHaveLength(20);
		expect(rows.some((row) => 'nexthinkToolNote' in row)).toBe(false);
	});

	it('bounds Execute Query by size too, counting every row it left out', async () => {
		const result = await exportTool({ operation: 'executeQuery', queryId: 'wide_rows', options: { maxRowsAsTool: 60, maxOutputKBAsTool: 4 } });
		const rows = answerOf(result);
		expect(Buffer.byteLength(result.answer!)).toBeLessThanOrEqual(4 * 1024);
		const shown = rows.length - 1;
		expect(rows[0]).toMatchObject({ rowsShown: shown, rowsLeftOut: 100 - shown, moreRowsNotCounted: false });
		expect(rows[0].nexthinkToolNote).toContain(`only ${shown} of 100 rows of the query #wide_rows`);
		expect(rows[0].nexthinkToolNote).toContain('"Max Rows When Used as a Tool" or "Max Output Size When Used as a Tool (KB)"');
	});

	it('refuses a Max Output Size that is not a number from 1 before any request', async () => {
		const result = await exportTool({ operation: 'executeQuery', queryId: 'devices_20', options: { maxOutputKBAsTool: 0 } });
		expect(result.error).toContain('Max Output Size When Used as a Tool (KB) must be a number from 1 to 1,048,576, got 0');
		expect(server.requests).toHaveLength(0);
	});

	it('outside an agent the tool limits do not apply', async () => {
		const { items, error } = await runNode({
			nodeType: new NexthinkExport(),
			parameters: { operation: 'export', queryId: 'wide_rows', options: { maxRowsAsTool: 1, maxOutputKBAsTool: 1 }, advancedOptions: FAST_WAIT } as never,
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(100);
	});
});

describe(`Nexthink Enrichment as an agent's tool on n8n-core ${N8N_CORE_VERSION}`, () => {
	const parameters = (options: Record<string, unknown> = {}) => ({
		objectType: 'device',
		identifyBy: 'name',
		identificationValue: "={{ $fromAI('deviceName', 'Name of the Nexthink device to update', 'string') }}",
		mappingMode: 'defineBelow',
		deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: "={{ $fromAI('tier', 'Support tier: gold, silver or bronze', 'string') }}" }] },
		domain: 'n8n',
		options,
	});
	const enrichTool = (options?: Record<string, unknown>) =>
		runAsAgentTool({
			nodeType: new NexthinkEnrichment(),
			parameters: parameters(options) as never,
			toolArguments: { deviceName: 'PC-1', tier: 'gold' },
			credentials: credentials(),
		});

	it('only validates by default, sends nothing and tells the model that nothing was written and why', async () => {
		const result = await enrichTool();
		expect(result.tool.parameters).toEqual({
			deviceName: { type: 'ZodString', description: 'Name of the Nexthink device to update' },
			tier: { type: 'ZodString', description: 'Support tier: gold, silver or bronze' },
		});
		const [item] = answerOf(result);
		expect(item.enrichment).toMatchObject({ status: 'valid', applied: false, fields: { 'device/device/#tier': 'gold' } });
		expect(item.enrichment.note).toContain('Nothing was written to Nexthink');
		expect(item.enrichment.note).toContain('"Allow Writes When Used as a Tool"');
		expect(enrichmentCalls()).toHaveLength(0);
	});

	it('writes when the author switched on Allow Writes When Used as a Tool', async () => {
		const [item] = answerOf(await enrichTool({ allowWritesAsTool: true }));
		expect(item.enrichment).toMatchObject({ status: 'applied', applied: true });
		expect(item.enrichment.note).toBeUndefined();
		expect(enrichmentCalls()).toHaveLength(1);
		expect(JSON.parse(enrichmentCalls()[0].body).enrichments[0].fields).toEqual([{ name: 'device/device/#tier', value: 'gold' }]);
	});

	it('keeps Validate Only when writes are allowed, and says so', async () => {
		const [item] = answerOf(await enrichTool({ allowWritesAsTool: true, validateOnly: true }));
		expect(item.enrichment).toMatchObject({ status: 'valid', applied: false });
		expect(item.enrichment.note).toContain('"Validate Only" is on');
		expect(enrichmentCalls()).toHaveLength(0);
	});

	it('outside an agent Allow Writes When Used as a Tool changes nothing: it writes', async () => {
		const { items, error } = await runNode({
			nodeType: new NexthinkEnrichment(),
			parameters: { ...parameters(), identificationValue: 'PC-2', deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'silver' }] } } as never,
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items[0].json.enrichment).toMatchObject({ status: 'applied' });
		expect(enrichmentCalls()).toHaveLength(1);
	});
});
