/**
 * The Export node's input checks, through n8n-core's engine over real HTTP: every item is
 * checked before the first request, and odd but valid input (parameter names that are also
 * JavaScript property names, non-ASCII log tags) arrives at the server exactly as given.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode, type RunNodeOptions } from '../../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../../helpers/localServer';

const { startNexthinkServer } = require('../../server');

const ODD_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#two_rows', header: ['device.name'], rows: [['PC-1'], ['PC-2']] });
	server.addQuery({
		id: '#odd_names',
		header: ODD_NAMES,
		parameters: ODD_NAMES,
		rows: (p: Record<string, string>) => [ODD_NAMES.map((name) => (Object.prototype.hasOwnProperty.call(p, name) ? p[name] : 'MISSING'))],
	});
});
localServerHooks(() => server);

function run(parameters: Record<string, unknown>, extra: Partial<RunNodeOptions> = {}) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: { advancedOptions: FAST_WAIT, ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...extra,
	});
}

const startCalls = () => server.requests.filter((r: any) => r.path === '/api/v1/nql/export');
const exportOf = (item: any) => server.exports.get(item.json.exportId);
const VALUES = ODD_NAMES.map((name, index) => [name, `value ${index}`]);

describe(`Export input checks on n8n-core ${N8N_CORE_VERSION}`, () => {
	describe('every item is checked before the first request', () => {
		// item 1's Max Rows comes from its input; before, item 0's export ran and its rows were lost
		const items = [{ json: { maxRows: 1 } }, { json: { maxRows: -1 } }, { json: { maxRows: 2 } }];
		const parameters = { queryId: 'two_rows', options: { maxRows: '={{ $json.maxRows }}' }, advancedOptions: FAST_WAIT };

		it('Stop Workflow: a bad item 1 stops the node before item 0 starts anything', async () => {
			const { error } = await run(parameters, { items });
			expect(error.message).toMatch(/Max Rows must be a whole number from 0/);
			expect(error.description).toMatch(/Nothing was sent to Nexthink[\s\S]*\nItem 1: /);
			expect(server.requests).toHaveLength(0);
		});

		it('Continue: the bad item gets its own error item, the good ones run, in input order', async () => {
			const { items: out, error } = await run(parameters, { items, onError: 'continueRegularOutput' });
			expect(error).toBeUndefined();
			expect(out.map((i) => [(i.pairedItem as any).item, i.json['device.name'] ?? i.json.error])).toEqual([
				[0, 'PC-1'],
				[1, expect.stringMatching(/Max Rows must be a whole number/)],
				[2, 'PC-1'],
				[2, 'PC-2'],
			]);
			expect(startCalls()).toHaveLength(2);
		});

		it.each([
			['getStatus', { exportId: '={{ $json.id }}' }, [{ json: { id: 'some-id' } }, { json: { id: ' ' } }], /export ID is empty/],
			['executeQuery', { queryId: '={{ $json.q }}' }, [{ json: { q: 'two_rows' } }, { json: { q: 'Bad Id' } }], /characters a query ID cannot have/],
			['startExport', { queryId: 'two_rows', options: { logTag: '={{ $json.tag }}' } }, [{ json: { tag: 'ok' } }, { json: { tag: 'a\nb' } }], /line break/],
		])('%s: a bad item 1 means nothing is sent', async (operation, extra, input, message) => {
			const { error } = await run({ operation, ...extra }, { items: input });
			expect(error.message).toMatch(message);
			expect(server.requests).toHaveLength(0);
		});
	});

	it.each([
		[{ maxRows: 1e20 }, /Max Rows must be a whole number from 0 to 9007199254740991, got number 100000000000000000000/],
		[{ maxRows: 2.5 }, /Max Rows must be a whole number/],
		[{ maxRows: -1 }, /Max Rows must be a whole number/],
	])('refuses Max Rows %j before any request', async (option, message) => {
		const { error } = await run({ queryId: 'two_rows', options: option, advancedOptions: FAST_WAIT });
		expect(error.message).toMatch(message);
		expect(server.requests).toHaveLength(0);
	});

	describe('NQL parameter names that are also JavaScript property names', () => {
		it.each(['POST', 'GET'])('arrive as ordinary names with a %s start (name/value pairs)', async (startMethod) => {
			const { items, error } = await run({
				queryId: 'odd_names',
				queryParameters: { parameter: VALUES.map(([name, value]) => ({ name, value })) },
				advancedOptions: { ...FAST_WAIT, startMethod },
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toHaveLength(1);
			expect(Object.entries(items[0].json)).toEqual(VALUES);
			const [start] = startCalls();
			const sent = startMethod === 'POST' ? JSON.parse(start.body).parameters : start.query;
			for (const [name, value] of VALUES) expect(Object.getOwnPropertyDescriptor(sent, name)?.value).toBe(value);
		});

		it('arrive as ordinary names from the JSON input', async () => {
			const json = `{${VALUES.map(([name, value]) => `"${name}": "${value}"`).join(', ')}}`;
			const { items, error } = await run({ operation: 'startExport', queryId: 'odd_names', parametersInput: 'json', queryParametersJson: json });
			expect(error).toBeUndefined();
			expect(Object.entries(exportOf(items[0]).parameters)).toEqual(VALUES);
		});

		it('still refuses a name given twice', async () => {
			const { error } = await run({
				queryId: 'odd_names',
				queryParameters: { parameter: [{ name: 'toString', value: 'a' }, { name: '$toString', value: 'b' }] },
			});
			expect(error.message).toMatch(/"toString" is given twice/);
			expect(server.requests).toHaveLength(0);
		});
	});

	describe('custom log tag', () => {
		it.each([
			['Zürich 東京 run', 'non-Latin-1 text'],
			[`${'a'.repeat(254)}🚀`, 'a 255-character tag ending in an emoji (256 UTF-16 units)'],
			['nightly-inventory', 'plain ASCII'],
		])('%j arrives exactly as typed (%s)', async (logTag) => {
			const { items, error } = await run({ operation: 'startExport', queryId: 'two_rows', options: { logTag } });
			expect(error).toBeUndefined();
			expect(exportOf(items[0]).tag).toBe(logTag);
			// on the wire: exactly the UTF-8 bytes of the tag
			expect(Buffer.from(startCalls()[0].headers['x-platform-log-custom-tag'], 'latin1')).toEqual(Buffer.from(logTag, 'utf8'));
		});

		it.each([
			[`${'a'.repeat(255)}🚀`, /custom log tag is 256 characters long; Nexthink accepts at most 255/],
			['line one\nline two', /line break\) at character 9/],
			['tab\there', /a tab\) at character 4/],
			[' padded', /starts or ends with a space/],
			['x\ud800y', /half of a character pair/],
		])('%j is refused before sending, saying why', async (logTag, message) => {
			const { error } = await run({ operation: 'startExport', queryId: 'two_rows', options: { logTag } });
			expect(error.message).toMatch(message);
			expect(server.requests).toHaveLength(0);
		});
	});
});
