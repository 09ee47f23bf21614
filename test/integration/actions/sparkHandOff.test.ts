/**
 * Nexthink Actions, Spark → Hand Off Conversation (Spark Handoff API), through n8n-core's real engine
 * (both generations) against the local server: the headers and body (UPN, time zone, TEXT and FILE
 * parts with their MIME type, metadata), 204 and 200 as success, 404 as a user Spark does not know,
 * the checks before any request, every other answer with a clear message and never sent twice, the
 * three "On Error" settings, no secret in the output, and the node as an AI agent's tool.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { REFUSED_RUN_REQUEST } from '../../../nodes/Nexthink/actions/shared/apiCalls';
import { ACTIONS_TOOL_DESCRIPTIONS } from '../../../nodes/Nexthink/shared/toolDescriptions';
import { runAsAgentTool } from '../../helpers/agentTool';
import { nexthinkCredentials, runNode, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { expectNoSecret, secretsSeenBy, serialised } from '../../helpers/secrets';
import { paired, runActions, serverWithClientLacking } from './helpers';

jest.setTimeout(30_000);

const HANDOFF = '/api/v1/spark/handoff';
const CLIENT_SECRET = 'nx-secret-value-that-must-stay-hidden';
const ALICE = 'alice.martin@example.com';
const BOB = 'bob.keller@example.com';

let server: any;

beforeAll(async () => {
	server = await serverWithClientLacking('spark', CLIENT_SECRET);
});

localServerHooks(() => server);

beforeEach(() => {
	server.spark.handoffs.length = 0;
	Object.assign(server.options, { sparkEnabled: true, sparkSuccessStatus: 204, sparkBadRequestBody: 'message' });
});

function handOffParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'spark',
		operation: 'handOff',
		userPrincipalName: '={{ $json.upn }}',
		handOffMessage: '={{ $json.text }}',
		handOffFiles: '',
		handOffTimeZone: '',
		options: {},
		...extra,
	};
}

const handOff = (items: IDataObject[], extra: INodeParameters = {}, options?: Partial<RunNodeOptions>) => runActions(server, handOffParameters(extra), items, options);
const sent = () => server.requests.filter((r: any) => r.method === 'POST' && r.path === HANDOFF);
const outcome = (item: INodeExecutionData) => item.json.nexthinkSpark as IDataObject;

describe('Hand Off: the request and its success', () => {
	it('sends the UPN and time zone headers, the message, the files with their MIME type and the metadata; 204 is success', async () => {
		const log = Buffer.from('2026-11-27 VPN dropped\n');
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
		const result = await runNode({
			nodeType: new NexthinkActions(),
			parameters: handOffParameters({
				handOffFiles: 'log, screenshot',
				handOffTimeZone: 'europe/zurich',
				handOffMetadata: { entry: [{ key: 'source', value: 'n8n' }, { key: 'ticket', value: 'INC0012345' }] },
			}),
			items: [
				{
					json: { upn: ALICE, text: 'My VPN keeps disconnecting since this morning.' },
					binary: {
						log: { data: log.toString('base64'), mimeType: 'text/plain', fileName: 'vpn.log' },
						screenshot: { data: png.toString('base64'), mimeType: 'image/png', fileName: 'screen.png' },
					},
				},
			],
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		expect(result.error).toBeUndefined();
		const [request] = sent();
		expect(request.headers['user-principal-name']).toBe(ALICE);
		expect(request.headers.timezone).toBe('Europe/Zurich');
		expect(request.headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(request.body)).toEqual({
			message: {
				parts: [
					{ type: 'TEXT', text: 'My VPN keeps disconnecting since this morning.' },
					{ type: 'FILE', mimeType: 'text/plain', fileContent: log.toString('base64') },
					{ type: 'FILE', mimeType: 'image/png', fileContent: png.toString('base64') },
				],
			},
			metadata: { source: 'n8n', ticket: 'INC0012345' },
		});
		expect(outcome(result.items[0])).toEqual({
			status: 'handedOff',
			upn: ALICE,
			files: 2,
			timeZone: 'Europe/Zurich',
			statusCode: 204,
			message: expect.stringContaining('continues with the user in Microsoft Teams'),
		});
		expect(server.spark.handoffs).toHaveLength(1);
	});

	it('sends no Timezone header and no metadata when none is given, and takes 200 as success', async () => {
		server.options.sparkSuccessStatus = 200;
		const result = await handOff([{ upn: ALICE, text: 'hi' }]);
		expect(outcome(result.items[0])).toMatchObject({ status: 'handedOff', statusCode: 200 });
		expect(sent()[0].headers.timezone).toBeUndefined();
		expect(JSON.parse(sent()[0].body)).toEqual({ message: { parts: [{ type: 'TEXT', text: 'hi' }] } });
	});
});

describe('Hand Off: checks before any request', () => {
	it.each([
		['no UPN', { upn: '', text: 'hi' }, {}, 'No user: "User Principal Name" is empty'],
		['a UPN with a line break', { upn: 'alice@example.com\r\nX-Evil: 1', text: 'hi' }, {}, 'is not a user principal name'],
		['a name instead of a UPN', { upn: 'Alice Martin', text: 'hi' }, {}, '"Alice Martin" is not a user principal name'],
		['an empty message', { upn: ALICE, text: '  ' }, {}, 'The message is empty'],
		['a time zone that does not exist', { upn: ALICE, text: 'hi' }, { handOffTimeZone: 'Mars/Olympus' }, '"Mars/Olympus" is not an IANA time zone name'],
		['an offset instead of a time zone', { upn: ALICE, text: 'hi' }, { handOffTimeZone: '+01:00' }, '"+01:00" is not an IANA time zone name'],
		['a file the item does not have', { upn: ALICE, text: 'hi' }, { handOffFiles: 'data' }, 'The item has no binary property "data"; it has no binary data'],
		['a metadata key given twice', { upn: ALICE, text: 'hi' }, { handOffMetadata: { entry: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] } }, 'Metadata key "a" is given twice'],
	])('refuses %s, naming it, and sends nothing', async (_label, item, extra, message) => {
		// a setting of the node applies to every item: then the bad item is the only one
		const items = Object.keys(extra).length === 0 ? [{ upn: BOB, text: 'fine' }, item] : [item];
		const result = await handOff(items, extra as INodeParameters);
		expect(result.error?.message).toContain(`Item ${items.length - 1} cannot be sent`);
		expect(result.error?.message).toContain(message);
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
	});
});

describe('Hand Off: answers other than success (each sent once)', () => {
	it.each([
		['404, a user Spark does not know', () => undefined, 'nobody@example.com', /\(HTTP 404\): User not found: nobody@example\.com/, /Spark does not know this user/],
		['400 with a message', () => server.injectFault({ path: HANDOFF, status: 400, body: { message: 'Invalid Timezone' } }), ALICE, /\(HTTP 400\): Invalid Timezone/, /Spark rejected the request/],
		['400 without a body', () => (server.options.sparkBadRequestBody = 'empty', server.injectFault({ path: HANDOFF, status: 400 })), ALICE, /\(HTTP 400\)/, /Spark rejected the request/],
		['403 with Spark off', () => (server.options.sparkEnabled = false), ALICE, /\(HTTP 403\): Spark is not enabled/, /"Spark API" permission/],
		['500', () => server.injectFault({ path: HANDOFF, status: 500, times: 5 }), ALICE, /\(HTTP 500\)/, /Spark may have received the message/],
		['502', () => server.injectFault({ path: HANDOFF, status: 502, times: 5 }), ALICE, /\(HTTP 502\)/, /Spark may have received the message/],
		['503', () => server.injectFault({ path: HANDOFF, status: 503, times: 5 }), ALICE, /\(HTTP 503\)/, new RegExp(REFUSED_RUN_REQUEST.replace(/[.,]/g, '.'))],
		['429', () => server.injectFault({ path: HANDOFF, status: 429, headers: { 'retry-after': '1' }, times: 5 }), ALICE, /\(HTTP 429\)/, /wrote to them in Microsoft Teams/],
		['a dropped connection', () => server.injectFault({ path: HANDOFF, drop: true, times: 5 }), ALICE, /Handing off the conversation of alice/, /Spark may have received the message/],
		['a 200 HTML page', () => server.injectFault({ path: HANDOFF, status: 200, body: '<html>login</html>', contentType: 'text/html' }), ALICE, /unexpected answer \(HTTP 200, text\/html\)/, /Spark may have received/],
		['a 202', () => server.injectFault({ path: HANDOFF, status: 202 }), ALICE, /unexpected answer \(HTTP 202/, /the documented 204/],
	])('%s: a clear error', async (_label, arrange, upn, message, explained) => {
		arrange();
		const result = await handOff([{ upn, text: 'hi' }]);
		expect(sent()).toHaveLength(1);
		expect(result.error?.message).toMatch(message);
		expect(`${result.error?.message} ${result.error?.description}`).toMatch(explained);
		expect(server.spark.handoffs).toEqual([]);
	});

	it('403 for a credential without the Spark API permission: the later items are not sent', async () => {
		const credentials = { nexthinkApi: { ...nexthinkCredentials(server), clientId: 'no-spark', clientSecret: 'no-spark-secret' } };
		const result = await handOff([{ upn: ALICE, text: 'a' }, { upn: BOB, text: 'b' }], {}, { credentials, onError: 'continueRegularOutput' });
		expect(sent()).toHaveLength(1);
		expect(outcome(result.items[0])).toMatchObject({ status: 'failed', error: { httpCode: '403', description: expect.stringContaining('"Spark API" permission') } });
		expect(outcome(result.items[1])).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('Not sent: an earlier request of this run was refused') } });
	});

	it('an error page that echoes the request: no token or secret in the error or the run data', async () => {
		server.injectFault({ path: HANDOFF, status: 502, echoRequest: 'json' });
		const result = await handOff([{ upn: ALICE, text: 'hi' }], {}, { onError: 'continueRegularOutput' });
		expect(sent()).toHaveLength(1);
		expectNoSecret(serialised(result.run), secretsSeenBy(server, [CLIENT_SECRET]));
		expect(serialised(result.items)).toContain('[redacted]');
	});
});

describe('Hand Off: the three On Error settings', () => {
	const ITEMS = [
		{ upn: ALICE, text: 'a' },
		{ upn: 'nobody@example.com', text: 'b' },
		{ upn: BOB, text: 'c' },
	];

	it('Continue: each item with its outcome, in order', async () => {
		const result = await handOff(ITEMS, {}, { onError: 'continueRegularOutput' });
		expect(sent()).toHaveLength(3);
		expect(result.items.map((item) => [paired(item), outcome(item).status])).toEqual([
			[0, 'handedOff'],
			[1, 'failed'],
			[2, 'handedOff'],
		]);
		expect(outcome(result.items[1])).toMatchObject({ error: { httpCode: '404' } });
	});

	it('Continue (using error output): the user Spark does not know goes to the error output, paired', async () => {
		const result = await handOff(ITEMS, {}, { onError: 'continueErrorOutput' });
		const [main, errors] = result.outputs;
		expect(main.map(paired)).toEqual([0, 2]);
		expect(errors.map(paired)).toEqual([1]);
		expect(JSON.stringify(errors[0].json)).toContain('Spark does not know this user');
	});

	it('Stop Workflow: stops at the failed handoff, saying which items were handed off', async () => {
		const result = await handOff(ITEMS);
		expect(sent()).toHaveLength(2);
		expect(result.error?.message).toContain('(HTTP 404)');
		expect(result.error?.description).toContain('1 earlier request of this run did run (for item 0): running all items again repeats it');
	});
});

describe('Hand Off as an AI agent\'s tool', () => {
	it('is described to the model with the UPN and message it fills, and hands off with them', async () => {
		const result = await runAsAgentTool({
			nodeType: new NexthinkActions(),
			parameters: handOffParameters({
				userPrincipalName: "={{ $fromAI('upn', 'The user principal name (email-like sign-in name) of the person to hand over', 'string') }}",
				handOffMessage: "={{ $fromAI('message', 'What the person needs, in their words', 'string') }}",
				handOffMetadata: { entry: [{ key: 'source', value: 'n8n agent' }] },
				options: { allowWritesAsTool: true },
			}),
			toolArguments: { upn: ALICE, message: 'My laptop is very slow since the update' },
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		expect(result.tool.parameters).toEqual({
			upn: { type: 'ZodString', description: 'The user principal name (email-like sign-in name) of the person to hand over' },
			message: { type: 'ZodString', description: 'What the person needs, in their words' },
		});
		expect(result.tool.description).toBe(ACTIONS_TOOL_DESCRIPTIONS.spark.handOff);
		expect(JSON.parse(sent()[0].body)).toEqual({ message: { parts: [{ type: 'TEXT', text: 'My laptop is very slow since the update' }] }, metadata: { source: 'n8n agent' } });
		expect(sent()[0].headers['user-principal-name']).toBe(ALICE);
		expect(result.answer).toContain('handedOff');
	});

	it.each([
		['off (the default)', {}],
		['given as the text "false"', { allowWritesAsTool: 'false' }],
	])('with Allow Writes When Used as a Tool %s, sends nothing and tells the model so', async (_case, options) => {
		const result = await runAsAgentTool({
			nodeType: new NexthinkActions(),
			parameters: handOffParameters({
				userPrincipalName: "={{ $fromAI('upn', 'The UPN of the person to hand over', 'string') }}",
				handOffMessage: "={{ $fromAI('message', 'What the person needs', 'string') }}",
				options,
			}),
			toolArguments: { upn: ALICE, message: 'My laptop is very slow since the update' },
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		expect(sent()).toHaveLength(0);
		expect(server.spark.handoffs).toHaveLength(0);
		expect(result.answer).toContain('validated');
		expect(result.answer).toContain('Nothing was sent to Nexthink');
		expect(result.answer).not.toContain('handedOff');
	});
});
