/**
 * The Export node through n8n-core's engine: the settings it keeps in Advanced Options (the
 * results-file limits, the polling curve, the start method, Execute Query's answer limits) are read
 * from there, and the same names under Options do not count.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { gzipBomb } from '../../helpers/bombs';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../../helpers/localServer';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer } = require('../../server');

const MB = 1024 * 1024;

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#devices', header: ['device.name', 'device.note'], rows: [['PC-1', 'fine']], completeAfterPolls: 0 });
});
localServerHooks(() => server);

function run(parameters: Record<string, unknown>) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: { queryId: 'devices', ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
	});
}

const startCalls = (method: string) => server.requests.filter((r: any) => r.path === '/api/v1/nql/export' && r.method === method);

describe(`Export Advanced Options on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('Export: the limit, the polling curve and the start method come from Advanced Options', async () => {
		serveFile(gzipBomb(Buffer.alloc(MB, 'x'), 2)); // one 2 MB field
		const { items, error } = await run({ compression: 'GZIP', advancedOptions: { ...FAST_WAIT, maxFieldMB: 1, startMethod: 'GET' } });
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/^The results file was not read: A field starting on line 2 of the results is longer than 1 MB \(the field size limit\)/);
		expect(error.description).toMatch(/these settings are under Advanced Options;/);
		expect(startCalls('GET')).toHaveLength(1);
		expect(startCalls('POST')).toHaveLength(0);
	}, DATA_WORK_TIMEOUT_MS); // builds the file with the gzip tools and reads megabytes

	it('Export: the same settings under Options do not count (the defaults apply)', async () => {
		serveFile(gzipBomb(Buffer.alloc(MB, 'x'), 2));
		const { items, error } = await run({ compression: 'GZIP', options: { maxFieldMB: 1, startMethod: 'GET' }, advancedOptions: FAST_WAIT });
		expect(error).toBeUndefined();
		expect(items[0].json['device.note']).toHaveLength(2 * MB); // within the default 16 MB field limit
		expect(startCalls('POST')).toHaveLength(1);
	}, DATA_WORK_TIMEOUT_MS);

	it('Export: a bad polling setting in Advanced Options fails before any request, naming it', async () => {
		const { error } = await run({ advancedOptions: { firstPollSeconds: -1 } });
		expect(error.message).toMatch(/First Poll After/);
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
	});

	it('Execute Query: Max Answer Size comes from Advanced Options, not from its Options', async () => {
		const limited = await run({ operation: 'executeQuery', advancedOptions: { maxAnswerMB: 0.00001 } }); // 10 bytes
		expect(limited.error.message).toMatch(/^Executing #devices was stopped: the execute answer is larger than /);
		expect(limited.error.description).toMatch(/these settings are under Advanced Options;/);
		const unlimited = await run({ operation: 'executeQuery', options: { maxAnswerMB: 0.00001 } });
		expect(unlimited.error).toBeUndefined();
		expect(unlimited.items.map((item) => item.json['device.name'])).toEqual(['PC-1']);
	});
});

/** Serves `body` as the next results file, whatever its name and signature. */
function serveFile(body: Buffer): void {
	server.injectFault({ method: 'GET', path: /^\/files\//, status: 200, headers: { 'content-type': 'application/gzip' }, body });
}
