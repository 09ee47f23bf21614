// @ts-check
'use strict';

/**
 * The example "Nexthink MCP server" (docs/examples/nexthink-mcp-server.json) used by real MCP
 * clients: the official SDK (`@modelcontextprotocol/sdk`) connects over Streamable HTTP and SSE to
 * the running n8n's production MCP URL (`/mcp/<path>`: version 2 of the MCP Server Trigger, which
 * n8n 1.123 and 2.41 both have), lists the tools, calls a read tool and the write tools as the
 * example ships them (writes off), then calls the remote action through a copy of the example with
 * *Allow Writes When Used as a Tool* on, served at its own path. That copy also has the tools the
 * narrowing needs: *Query Raw* and *Query Selected* (Query Nexthink with the other two output
 * shapes) and *Run Remote Action* (the remote action from the model, allow-listed to
 * #clear_teams_cache).
 *
 * Then the client set-ups the docs show (docs/mcp-clients/, test/e2e/lib/mcpClientConfigs.js):
 * each file read as its client reads it, against the example and against a copy with Bearer Auth,
 * Claude Desktop's bridge started as configured (`npx -y mcp-remote …` over stdio). And what a
 * client shows when it goes wrong (docs/troubleshooting.md): a workflow that is not published, a
 * client without the token, a tool whose node was renamed.
 *
 * n8n runs here without `N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE` (scripts/n8n-instance.js leaves it
 * out); the first check proves it from the process's environment.
 *
 * The production URL and not the test one: n8n's test webhooks are registered for one request
 * while the editor listens, and an MCP session is several (initialize, list, call). So the
 * workflows are published before `n8n start`, like the ticket example.
 */

const assert = require('node:assert/strict');

const path = require('node:path');

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');
const { StdioClientTransport, getDefaultEnvironment } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { apiRequest, fetchToken } = require('../../server/client');
const { mcpServerUrl, MCP_EXAMPLE_FILE, readExamples } = require('../../../scripts/n8n-examples');
const { LEFT_OUT_ENV, sleep } = require('../../../scripts/n8n-instance');
const { untilRegistered } = require('../../../scripts/mcp-probe');
const { ACTIONS_NODE } = require('../lib/workflow');
const { CLIENT_FILES, clientConnections } = require('../lib/mcpClientConfigs');
const { MCP_MESSAGES } = require('../lib/mcpMessages');

const REPO = path.resolve(__dirname, '../../..');

/** The copy of the example with writes on, at its own path. */
const WRITES_ON = { id: 'nxE2eMcpWrites01', path: 'nexthink-writes-on' };
/** A copy with Bearer Auth on the trigger, and its credential (n8n's `httpBearerAuth`). */
const BEARER = { id: 'nxE2eMcpBearer01', path: 'nexthink-bearer', token: 'e2e-mcp-token-4f1c9a7d', credential: { id: 'nxE2eMcpBearerCr', name: 'e2e MCP bearer token' } };
/** A copy imported but never published. */
const UNPUBLISHED = { id: 'nxE2eMcpUnpubl01', path: 'nexthink-unpublished' };
/** A copy whose read tool's node was renamed. */
const RENAMED = { id: 'nxE2eMcpRenamed1', path: 'nexthink-renamed', from: 'Query Nexthink', to: 'Ask Nexthink' };
const WRITE_TOOL = 'Clear Teams Cache';
const WRITE_ACTION = '#clear_teams_cache';
const EXECUTE = '/api/v1/act/execute';
/** `$fromAI('key', 'description'` in a parameter's JSON text: the key and the description as written. */
const FROM_AI = /\$fromAI\('([^']+)', '((?:[^'\\]|\\.)*)'/g;

/** The example as shipped. */
function mcpExample() {
	const example = readExamples().find(({ file }) => file === MCP_EXAMPLE_FILE);
	assert.ok(example, `${MCP_EXAMPLE_FILE} is in docs/examples`);
	return example.workflow;
}

/** n8n's tool names for the example's nodes connected to its trigger as tools, sorted. */
const exampleToolNames = () =>
	Object.entries(mcpExample().connections)
		.filter(([, outputs]) => /** @type {any} */ (outputs).ai_tool)
		.map(([name]) => toolName(name))
		.sort();

/**
 * A copy of the example at its own path (and node IDs), each node changed by `change`; `rename`
 * renames a node as the editor does (its connections follow).
 * @param {{ id: string, name: string, path: string, nodeIdEnd: string, change?: (node: any) => void, rename?: { from: string, to: string } }} spec
 */
function exampleCopy(spec) {
	const copy = structuredClone(mcpExample());
	copy.id = spec.id;
	copy.name = spec.name;
	for (const node of copy.nodes) {
		node.id = `${node.id.slice(0, -4)}${spec.nodeIdEnd}`;
		if (node.type === '@n8n/n8n-nodes-langchain.mcpTrigger') {
			node.parameters.path = spec.path;
			node.webhookId = `0e2e0000-0000-4000-8000-0000000${spec.nodeIdEnd}0`;
		}
		spec.change?.(node);
		if (node.name === spec.rename?.from) node.name = spec.rename.to;
	}
	if (spec.rename) {
		copy.connections[spec.rename.to] = copy.connections[spec.rename.from];
		delete copy.connections[spec.rename.from];
	}
	return copy;
}

/** In the writes-on copy: the remote action comes from the model, and only #clear_teams_cache is allowed. */
const ALLOW_LISTED_TOOL = 'Run Remote Action';

/**
 * The example with "Allow Writes When Used as a Tool" on for the remote action, at WRITES_ON.path,
 * and the tools of the narrowing checks (a copy of a node under another name, connected to the trigger).
 */
function writesOnWorkflow() {
	const copy = exampleCopy({
		...WRITES_ON,
		name: 'e2e: Nexthink MCP server with writes on',
		nodeIdEnd: '9999',
		change(node) {
			if (node.name === WRITE_TOOL) node.parameters.options = { ...node.parameters.options, allowWritesAsTool: true };
		},
	});
	const byName = (/** @type {string} */ name) => copy.nodes.find((/** @type {any} */ node) => node.name === name);
	/** @param {string} from @param {string} name @param {string} suffix @param {(parameters: any) => void} change */
	const addTool = (from, name, suffix, change) => {
		const node = structuredClone(byName(from));
		node.name = name;
		node.id = `${node.id.slice(0, -4)}${suffix}`;
		node.position = [node.position[0], node.position[1] + 200];
		change(node.parameters);
		copy.nodes.push(node);
		copy.connections[name] = { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] };
	};
	addTool('Query Nexthink', 'Query Raw', 'aaa1', (parameters) => (parameters.options = { outputAsTool: 'raw' }));
	addTool('Query Nexthink', 'Query Selected', 'aaa2', (parameters) => (parameters.options = { outputAsTool: 'selected', fieldsAsTool: 'device.operating_system.name, device.name' }));
	addTool(WRITE_TOOL, ALLOW_LISTED_TOOL, 'aaa3', (parameters) => {
		delete parameters.toolDescription;
		parameters.remoteAction = { __rl: true, mode: 'id', value: "={{ $fromAI('remoteAction', 'NQL ID of the remote action', 'string') }}" };
	});
	return copy;
}

/** What the suite imports besides the examples: the copies, one of them never published. */
const mcpWorkflows = () => [
	writesOnWorkflow(),
	exampleCopy({
		...BEARER,
		name: 'e2e: Nexthink MCP server with Bearer Auth',
		nodeIdEnd: '8888',
		change(node) {
			if (node.type !== '@n8n/n8n-nodes-langchain.mcpTrigger') return;
			node.parameters.authentication = 'bearerAuth';
			node.credentials = { httpBearerAuth: { ...BEARER.credential } };
		},
	}),
	exampleCopy({ ...UNPUBLISHED, name: 'e2e: Nexthink MCP server, not published', nodeIdEnd: '7777' }),
	exampleCopy({ ...RENAMED, name: 'e2e: Nexthink MCP server with a renamed tool', nodeIdEnd: '6666', rename: RENAMED }),
];

/** The workflows published before `n8n start` (all but UNPUBLISHED). */
const mcpWorkflowIds = () => [mcpExample().id, WRITES_ON.id, BEARER.id, RENAMED.id];

/** The Bearer Auth credential the BEARER copy's trigger checks, as `n8n import:credentials` takes it. */
const mcpCredentials = () => [{ ...BEARER.credential, type: 'httpBearerAuth', data: { token: BEARER.token } }];

/**
 * A connected MCP client; `close` ends the session.
 * @param {string} url
 */
async function connect(url) {
	const client = new Client({ name: 'n8n-nodes-nexthink e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url)));
	return client;
}

/**
 * Opens an MCP client on one documented connection (test/e2e/lib/mcpClientConfigs.js): Streamable
 * HTTP with its headers, or the configured command over stdio. A stdio server's stderr is kept, as
 * Claude Desktop keeps it in the server's log. A failed connection throws with `stderr` on the error.
 * mcp-remote keeps OAuth state under MCP_REMOTE_CONFIG_DIR (default ~/.mcp-auth): here a folder
 * beside the n8n under test, removed with the suite's work folder.
 * @param {import('../lib/mcpClientConfigs').ClientConnection} connection
 * @param {import('../../../scripts/n8n-instance').N8nInstance} n8n
 */
async function openDocumented(connection, n8n) {
	const client = new Client({ name: 'n8n-nodes-nexthink e2e', version: '1.0.0' });
	const output = { stderr: '' };
	let transport;
	if (connection.transport === 'stdio') {
		transport = new StdioClientTransport({
			command: connection.command,
			args: connection.args,
			// what a host gives a local server (the SDK's default set: PATH, HOME, …), the config's env
			env: { ...getDefaultEnvironment(), ...connection.env, MCP_REMOTE_CONFIG_DIR: path.join(n8n.logDir, 'mcp-remote') },
			// mcp-remote is a devDependency: npx finds it in this repository without the registry
			cwd: REPO,
			stderr: 'pipe',
		});
		transport.stderr?.on('data', (chunk) => {
			output.stderr += chunk;
		});
	} else {
		transport = new StreamableHTTPClientTransport(new URL(connection.url), { requestInit: { headers: connection.headers } });
	}
	try {
		await client.connect(transport);
	} catch (error) {
		await client.close().catch(() => undefined);
		throw Object.assign(/** @type {Error} */ (error), { stderr: () => output.stderr });
	}
	return { client, stderr: () => output.stderr };
}

/**
 * The error a connection fails with (it must fail). @param {() => Promise<unknown>} open
 * @returns {Promise<Error & { stderr?: () => string }>}
 */
async function failure(open) {
	try {
		await open();
	} catch (error) {
		return /** @type {any} */ (error);
	}
	assert.fail('the connection was expected to fail');
}

/** Waits (at most 15 s) until a bridge's stderr holds `text`, as its process ends. @param {() => string} stderr @param {string} text */
async function stderrWith(stderr, text) {
	const deadline = Date.now() + 15_000;
	while (!stderr().includes(text) && Date.now() < deadline) await sleep(100);
	assert.ok(stderr().includes(text), `expected ${JSON.stringify(text)} in the bridge's stderr:\n${stderr()}`);
}

/** Lists the example's tools and calls its read tool List Remote Actions. @param {any} client */
async function listAndCall(client) {
	const { tools } = await client.listTools();
	assert.deepEqual(tools.map((/** @type {any} */ tool) => tool.name).sort(), exampleToolNames());
	const actions = await callTool(client, 'List Remote Actions', {});
	assert.ok(Array.isArray(actions) && actions.some((action) => action.id === WRITE_ACTION), `${WRITE_ACTION} among ${JSON.stringify(actions).slice(0, 300)}`);
}

/**
 * Calls a tool and returns the JSON of its text answer (n8n passes on the tool's answer as one text item).
 * @param {any} client @param {string} name @param {Record<string, unknown>} args
 */
async function callTool(client, name, args) {
	const result = await client.callTool({ name: toolName(name), arguments: args });
	assert.notEqual(result.isError, true, `${name} failed: ${JSON.stringify(result.content)}`);
	assert.equal(result.content.length, 1, JSON.stringify(result.content));
	const [content] = result.content;
	assert.equal(content.type, 'text');
	return JSON.parse(content.text);
}

/**
 * Calls a tool that refuses and returns the text of its error (n8n 2.x answers "<ErrorName>: message"
 * with isError, 1.x "Error: message").
 * @param {any} client @param {string} name @param {Record<string, unknown>} args
 */
async function callToolRefused(client, name, args) {
	const result = await client.callTool({ name: toolName(name), arguments: args });
	const text = result.content.map((/** @type {any} */ content) => content.text).join('\n');
	assert.equal(result.isError, true, `${name} did not fail: ${text}`);
	return text;
}

/** n8n's tool name for a node name (n8n-workflow's `nodeNameToToolName`). @param {string} nodeName */
const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/** @param {any} server */
const requestsTo = (server, /** @type {string} */ method, /** @type {string} */ path) => server.requests.filter((/** @type {any} */ r) => r.method === method && r.path === path);

/**
 * The default Tool Description n8n serves for the Actions tool's `resource`/`operation`: what the
 * package ships, read from the running n8n, not from this repository.
 * @param {any[]} nodeTypes @param {string} resource @param {string} operation
 */
function servedToolDescription(nodeTypes, resource, operation) {
	const tool = nodeTypes.find((type) => type.name === `${ACTIONS_NODE}Tool`);
	const property = tool.properties.find(
		(/** @type {any} */ candidate) =>
			candidate.name === 'toolDescription' && candidate.displayOptions?.show?.resource?.includes(resource) && candidate.displayOptions?.show?.operation?.includes(operation),
	);
	assert.ok(property, `the ${resource} ${operation} tool has a Tool Description`);
	return property.default;
}

/**
 * @typedef {{ n8n: import('../../../scripts/n8n-instance').N8nInstance, session: import('../../../scripts/n8n-instance').RestSession, server: any }} McpContext
 * @type {{ title: string, run: (ctx: McpContext) => Promise<void> }[]}
 */
const MCP_CHECKS = [
	{
		title: `MCP client on n8n started without ${LEFT_OUT_ENV.join(', ')}: lists the Nexthink tools and runs one`,
		async run({ n8n }) {
			const environment = n8n.environmentOf('main');
			for (const name of LEFT_OUT_ENV) assert.equal(environment[name], undefined, `n8n was started with ${name}`);
			const client = await connect(mcpServerUrl(n8n.baseUrl, mcpExample()));
			try {
				await listAndCall(client);
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client (official SDK) on the example "Nexthink MCP server": lists its four Nexthink tools with their descriptions and inputs',
		async run({ n8n, session }) {
			const example = mcpExample();
			const client = await connect(mcpServerUrl(n8n.baseUrl, example));
			try {
				const { tools } = await client.listTools();
				const byName = new Map(tools.map((/** @type {any} */ tool) => [tool.name, tool]));
				assert.deepEqual([...byName.keys()].sort(), ['Clear_Teams_Cache', 'Delete_Device', 'List_Remote_Actions', 'Query_Nexthink']);
				const written = (/** @type {string} */ name) => example.nodes.find((/** @type {any} */ node) => node.name === name).parameters.toolDescription;
				assert.equal(byName.get('Query_Nexthink').description, written('Query Nexthink'));
				assert.equal(byName.get('Clear_Teams_Cache').description, written('Clear Teams Cache'));
				// the two left at their default get the package's text for their operation
				const nodeTypes = /** @type {any[]} */ (await session.getJson('/types/nodes.json'));
				assert.equal(byName.get('List_Remote_Actions').description, servedToolDescription(nodeTypes, 'remoteAction', 'getMany'));
				assert.equal(byName.get('Delete_Device').description, servedToolDescription(nodeTypes, 'device', 'delete'));
				assert.match(byName.get('Delete_Device').description, /Allow Writes When Used as a Tool/);
				const inputs = (/** @type {string} */ name) => Object.keys(byName.get(name).inputSchema.properties ?? {}).sort();
				assert.deepEqual(inputs('Query_Nexthink'), ['parametersJson', 'queryId']);
				assert.deepEqual(inputs('Clear_Teams_Cache'), ['collectorUids']);
				assert.deepEqual(inputs('Delete_Device'), ['deviceName', 'deviceUid']);
				assert.deepEqual(inputs('List_Remote_Actions'), []);
				// each input carries the description written in its $fromAI() (docs/ai-agents.md: "What the model is told")
				for (const node of example.nodes) {
					for (const [, key, description] of JSON.stringify(node.parameters).matchAll(FROM_AI)) {
						assert.equal(byName.get(toolName(node.name)).inputSchema.properties[key].description, JSON.parse(`"${description}"`).replace(/\\'/g, "'"), `${node.name}: ${key}`);
					}
				}
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client: the read tool Query Nexthink runs #high_cpu_devices of its Query Catalogue and returns the rows the API gives',
		async run({ n8n, server }) {
			const client = await connect(mcpServerUrl(n8n.baseUrl, mcpExample()));
			try {
				const rows = await callTool(client, 'Query Nexthink', { queryId: '#high_cpu_devices', parametersJson: '{}' });
				const token = await fetchToken(server);
				const response = await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#high_cpu_devices' } });
				assert.equal(response.status, 200);
				const answer = /** @type {any} */ (await response.json());
				assert.ok(answer.data.length > 0 && answer.data.length <= 50, `${answer.data.length} rows: within the tool's 50`);
				// Simplified without catalogue columns: the columns with a value
				const simplified = answer.data.map((/** @type {any} */ row) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null && value !== '')));
				assert.deepEqual(rows, simplified);
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client: the write tools as shipped (writes off) refuse with a note and send nothing: no run request, no deletion, no request at all for Delete',
		async run({ n8n, server }) {
			const device = server.inventory.find('device/device/name', 'LAPTOP-ZRH-001');
			const client = await connect(mcpServerUrl(n8n.baseUrl, mcpExample()));
			try {
				server.clearRequests();
				const [run] = await callTool(client, WRITE_TOOL, { collectorUids: device.collectorUid });
				assert.equal(run.nexthinkRemoteAction.status, 'validated');
				assert.match(run.nexthinkRemoteAction.note, /^Nothing was sent to Nexthink/);
				assert.match(run.nexthinkRemoteAction.note, /"Allow Writes When Used as a Tool"/);
				assert.equal(requestsTo(server, 'POST', EXECUTE).length, 0, 'no run request');
				// what reached the server: at most a token and the read of the remote action's details (its inputs are checked)
				const other = server.requests.filter((/** @type {any} */ r) => r.path !== '/oauth2/default/v1/token' && !(r.method === 'GET' && r.path === '/api/v1/act/remote-action/details'));
				assert.deepEqual(other.map((/** @type {any} */ r) => `${r.method} ${r.path}`), []);

				server.clearRequests();
				const [preview] = await callTool(client, 'Delete Device', { deviceUid: device.uid, deviceName: device.name });
				assert.deepEqual(preview.nexthinkDeletionPreview.body, { devices: [{ uid: device.uid, name: device.name }] });
				assert.match(preview.nexthinkDeletionPreview.note, /^Nothing was sent to Nexthink/);
				assert.deepEqual(server.requests.map((/** @type {any} */ r) => `${r.method} ${r.path}`), [], 'the server recorded no request');
				assert.ok(server.inventory.find('device/device/name', device.name), 'the device is still there');
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client: Query Nexthink refuses a query ID outside its Query Catalogue with the list of the queries it may run, sending nothing',
		async run({ n8n, server }) {
			const client = await connect(mcpServerUrl(n8n.baseUrl, mcpExample()));
			try {
				server.clearRequests();
				const text = await callToolRefused(client, 'Query Nexthink', { queryId: '#delete_everything', parametersJson: '{}' });
				assert.match(text, /The query ID "#delete_everything" is not in this node's Query Catalogue: nothing was sent\. The queries it may run: #high_cpu_devices: Devices with a high CPU usage/);
				assert.match(text, /#devices_by_os: Devices whose operating system name matches os\. Parameters: os \(operating system name, \* as wildcard, e\.g\. Windows 10\*\)\./);
				const missing = await callToolRefused(client, 'Query Nexthink', { queryId: 'devices_by_os', parametersJson: '{}' });
				assert.match(missing, /#devices_by_os: it needs os; nothing was sent\./);
				assert.deepEqual(server.requests.map((/** @type {any} */ r) => `${r.method} ${r.path}`), [], 'the server recorded no request');
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client: the output shapes: Simplified (the catalogue\'s columns), Raw (every column, nulls too) and Selected Fields',
		async run({ n8n, server }) {
			const client = await connect(`${n8n.baseUrl}/mcp/${WRITES_ON.path}`);
			try {
				const args = { queryId: '#devices_by_os', parametersJson: '{"os": "Windows 11*"}' };
				const token = await fetchToken(server);
				const response = await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#devices_by_os', parameters: { os: 'Windows 11*' } } });
				const answer = /** @type {any} */ (await response.json());
				assert.ok(answer.data.length > 0, 'the query has rows');
				const firstRows = (/** @type {any[]} */ rows) => rows.filter((row) => row.nexthinkToolNote === undefined);
				const simplified = firstRows(await callTool(client, 'Query Nexthink', args));
				assert.deepEqual(Object.keys(simplified[0]), ['device.name', 'device.uid', 'device.entity', 'device.operating_system.name', 'device.last_seen']);
				assert.equal(simplified[0]['device.name'], answer.data[0]['device.name']);
				const raw = firstRows(await callTool(client, 'Query Raw', args));
				assert.deepEqual(raw[0], answer.data[0]);
				const selected = firstRows(await callTool(client, 'Query Selected', args));
				assert.deepEqual(selected[0], { 'device.operating_system.name': answer.data[0]['device.operating_system.name'], 'device.name': answer.data[0]['device.name'] });
				assert.ok(selected.length >= raw.length, `narrower rows fit at least as many: ${selected.length} and ${raw.length}`);
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client: a write tool refuses a remote action outside its allow-list before any request, writes on',
		async run({ n8n, server }) {
			const device = server.inventory.find('device/device/name', 'DESKTOP-LIS-001');
			const client = await connect(`${n8n.baseUrl}/mcp/${WRITES_ON.path}`);
			try {
				server.clearRequests();
				const text = await callToolRefused(client, ALLOW_LISTED_TOOL, { remoteAction: '#restart_service', collectorUids: device.collectorUid });
				assert.match(text, /The remote action #restart_service is not one this tool may run: nothing was sent\. It may run #clear_teams_cache/);
				assert.deepEqual(server.requests.map((/** @type {any} */ r) => `${r.method} ${r.path}`), [], 'the server recorded no request');
			} finally {
				await client.close();
			}
		},
	},
	{
		title: 'MCP client: with Allow Writes When Used as a Tool on (a copy of the example), the allow-listed remote action reaches the server exactly once and the answer reports its request ID',
		async run({ n8n, server }) {
			const device = server.inventory.find('device/device/name', 'DESKTOP-LIS-001');
			const client = await connect(`${n8n.baseUrl}/mcp/${WRITES_ON.path}`);
			try {
				server.clearRequests();
				const answer = await callTool(client, WRITE_TOOL, { collectorUids: device.collectorUid });
				const [run] = answer;
				assert.equal(run.nexthinkRemoteAction.status, 'triggered', JSON.stringify(run));
				// the last item says what was sent, with the request ID the outcome has
				const { requestId } = run.nexthinkRemoteAction;
				assert.deepEqual(answer.at(-1), {
					nexthinkToolWrites: {
						summary: `1 request sent to Nexthink by this tool call: #clear_teams_cache, request ID ${requestId}.`,
						requestsSent: 1,
						requests: [{ target: '#clear_teams_cache', requestIds: [requestId], items: [0], ok: true }],
					},
				});
				assert.equal(run.nexthinkRemoteAction.note, undefined);
				const sent = requestsTo(server, 'POST', EXECUTE);
				assert.equal(sent.length, 1, `${sent.length} run requests`);
				const body = JSON.parse(sent[0].body);
				assert.equal(body.remoteActionId, WRITE_ACTION);
				assert.deepEqual(body.devices, [device.collectorUid]);
			} finally {
				await client.close();
			}
		},
	},
	...Object.entries(CLIENT_FILES).map(([clientName, files]) => ({
		title: `MCP client set-up for ${clientName} as docs/mcp-clients/${files.join(' and ')} show it, without and with a bearer token: lists the tools, calls one`,
		async run(/** @type {McpContext} */ { n8n }) {
			const urls = { local: mcpServerUrl(n8n.baseUrl, mcpExample()), remote: `${n8n.baseUrl}/mcp/${BEARER.path}` };
			const connections = files.flatMap((file) => clientConnections(file, { urls, token: BEARER.token }));
			assert.ok(connections.some((connection) => connection.authenticated) && connections.some((connection) => !connection.authenticated), 'one set-up with and one without a token');
			for (const connection of connections) {
				const opened = await openDocumented(connection, n8n).catch((error) => {
					throw new Error(`${connection.label}: ${error.message}\n${error.stderr?.() ?? ''}`);
				});
				try {
					await listAndCall(opened.client);
				} finally {
					await opened.client.close();
				}
			}
		},
	})),
	{
		title: 'MCP client over SSE (GET on the same URL), without and with the bearer token: lists the tools, calls one',
		async run({ n8n }) {
			const authorization = { Authorization: `Bearer ${BEARER.token}` };
			for (const [url, headers] of /** @type {[string, Record<string, string>][]} */ ([
				[mcpServerUrl(n8n.baseUrl, mcpExample()), {}],
				[`${n8n.baseUrl}/mcp/${BEARER.path}`, authorization],
			])) {
				const client = new Client({ name: 'n8n-nodes-nexthink e2e', version: '1.0.0' });
				// the SSE stream (GET) takes its headers through `fetch`, the messages (POST) through `requestInit`
				const fetchWithHeaders = (/** @type {any} */ input, /** @type {any} */ init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers } });
				await client.connect(new SSEClientTransport(new URL(url), { requestInit: { headers }, eventSourceInit: { fetch: fetchWithHeaders } }));
				try {
					await listAndCall(client);
				} finally {
					await client.close();
				}
			}
		},
	},
	{
		title: `MCP troubleshooting: a workflow that is not published answers 404 "The requested webhook … is not registered." (SDK over Streamable HTTP and SSE; mcp-remote)`,
		async run({ n8n }) {
			const url = `${n8n.baseUrl}/mcp/${UNPUBLISHED.path}`;
			const overHttp = await failure(() => connect(url));
			assert.ok(overHttp.message.includes(MCP_MESSAGES.notRegistered(UNPUBLISHED.path)), overHttp.message);
			const overSse = await failure(() => new Client({ name: 'e2e', version: '1.0.0' }).connect(new SSEClientTransport(new URL(url))));
			assert.equal(overSse.message, MCP_MESSAGES.sse404);
			const [bridge] = clientConnections('claude-desktop.json', { urls: { local: url, remote: url }, token: '' });
			const bridged = await failure(() => openDocumented(bridge, n8n));
			await stderrWith(/** @type {() => string} */ (bridged.stderr), MCP_MESSAGES.bridge404);
			await stderrWith(/** @type {() => string} */ (bridged.stderr), MCP_MESSAGES.sse404);
			assert.ok(bridged.stderr?.().includes(MCP_MESSAGES.notRegistered(UNPUBLISHED.path)));
		},
	},
	{
		title: `MCP troubleshooting: Bearer Auth on the trigger, a client set up without the token gets 403 "Authorization data is wrong!" (Cursor's and Claude Desktop's set-ups; SSE)`,
		async run({ n8n }) {
			const url = `${n8n.baseUrl}/mcp/${BEARER.path}`;
			const [withoutToken] = clientConnections('cursor.mcp.json', { urls: { local: url, remote: url }, token: '' });
			const overHttp = await failure(() => openDocumented(withoutToken, n8n));
			assert.ok(overHttp.message.endsWith(MCP_MESSAGES.forbidden), overHttp.message);
			const wrongToken = await failure(() => openDocumented({ ...withoutToken, headers: { Authorization: 'Bearer not-the-token' } }, n8n));
			assert.ok(wrongToken.message.endsWith(MCP_MESSAGES.forbidden), wrongToken.message);
			const overSse = await failure(() => new Client({ name: 'e2e', version: '1.0.0' }).connect(new SSEClientTransport(new URL(url))));
			assert.equal(overSse.message, MCP_MESSAGES.sse403);
			const [bridge] = clientConnections('claude-desktop.json', { urls: { local: url, remote: url }, token: '' });
			const bridged = await failure(() => openDocumented(bridge, n8n));
			await stderrWith(/** @type {() => string} */ (bridged.stderr), MCP_MESSAGES.bridge403);
		},
	},
	{
		title: `MCP troubleshooting: after a tool's node was renamed, a call of the old name fails with "${MCP_MESSAGES.toolNotFound}"`,
		async run({ n8n }) {
			const client = await connect(`${n8n.baseUrl}/mcp/${RENAMED.path}`);
			try {
				const { tools } = await client.listTools();
				const names = tools.map((/** @type {any} */ tool) => tool.name);
				assert.ok(names.includes(toolName(RENAMED.to)) && !names.includes(toolName(RENAMED.from)), names.join());
				const call = await failure(() => client.callTool({ name: toolName(RENAMED.from), arguments: { queryId: '#high_cpu_devices', parametersJson: '{}' } }));
				assert.equal(call.message, MCP_MESSAGES.toolNotFound);
			} finally {
				await client.close();
			}
		},
	},
];

/**
 * Runs the MCP checks in the running n8n (both workflows published before `n8n start`).
 * @param {import('../lib/suite').Suite} suite @param {McpContext & { label: string, checks: typeof MCP_CHECKS }} ctx
 */
async function runMcpChecks(suite, ctx) {
	const published = [mcpServerUrl(ctx.n8n.baseUrl, mcpExample()), ...[WRITES_ON, BEARER, RENAMED].map((copy) => `${ctx.n8n.baseUrl}/mcp/${copy.path}`)];
	const served = await suite.setUp(`${ctx.label} MCP URLs registered`, ctx.checks.map((check) => `${ctx.label} ${check.title}`), async () => {
		for (const url of published) if ((await untilRegistered(url, 120_000)) === 404) throw new Error(`${url} still answers 404 after 120 s`);
		return true;
	});
	if (!served) return;
	for (const check of ctx.checks) await suite.test(`${ctx.label} ${check.title}`, async () => await check.run(ctx));
}

module.exports = { MCP_CHECKS, mcpCredentials, mcpWorkflows, mcpWorkflowIds, runMcpChecks };
