// @ts-check
'use strict';

/**
 * Drives the n8n editor in headless Chromium (Debian's `chromium`, through `playwright-core`):
 * signs in, opens example workflows, opens each Nexthink node's parameter panel (the Export
 * operations, Enrichment, and the Actions node's Run Remote Action, Workflow Run, Trigger
 * Campaign, Device Delete and Spark Hand Off Conversation as a tool), the Trigger, the Event Trigger
 * (each channel), and the credential forms (a saved Nexthink API credential, a new one, a new
 * Outbound Connector one), checks they render, and takes screenshots. Used by the e2e
 * editor check and by `npm run screenshots`.
 */

const fs = require('node:fs');
const path = require('node:path');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Text n8n shows instead of a panel when it does not know a node type. */
const UNKNOWN_NODE_TEXTS = ['not currently installed', 'Install this node to use it', 'is not known'];

/**
 * @typedef {{ name: string, file: string, workflowId: string, nodeId?: string, expectTexts: string[], kind: 'canvas' | 'node', height?: number, clicks?: Click[] }} Shot
 *   `height`: a taller window than the default 900 px, for a panel whose parameters would not fit;
 *   `clicks`: what to open in the panel before the picture, in order
 * @typedef {{ text?: string, selector?: string, expectText: string }} Click
 *   click the element with that exact text (or CSS selector), then wait until `expectText` shows
 * @typedef {{ name: string, file: string, credentialId?: string, createType?: string, expectTexts: string[] }} CredentialShot
 *   a saved credential (`credentialId`) or the form of a new one of the type named `createType`
 */

/** @param {string} baseUrl @param {{ email: string, password: string }} owner @param {import('playwright-core').Page} page */
async function signIn(baseUrl, owner, page) {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded' });
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(owner.email);
	await page.locator('input[type="password"]').first().fill(owner.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 90_000 });
}

/**
 * Fails when the page shows n8n's unknown-node text or lacks one of the expected texts.
 * @param {import('playwright-core').Locator} scope @param {string[]} expectTexts @param {string} what
 */
async function assertRendered(scope, expectTexts, what) {
	for (const text of expectTexts) {
		await scope.getByText(text, { exact: false }).filter({ visible: true }).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(() => {
			throw new Error(`${what}: "${text}" did not appear`);
		});
	}
	const content = await scope.innerText();
	for (const text of UNKNOWN_NODE_TEXTS) {
		if (content.includes(text)) throw new Error(`${what}: n8n says "${text}"`);
	}
}

/**
 * A workflow with one Export node per operation that the examples do not show, so the editor check
 * and the screenshots cover every operation's panel. Imported beside the examples.
 */
function operationsWorkflow() {
	const { buildWorkflow, exportNode } = require('./workflow');
	return buildWorkflow({
		id: 'nxEditorOps00001',
		name: 'Nexthink Export operations (editor check)',
		nodes: [
			exportNode('Start Export', { operation: 'startExport', queryId: '#all_devices' }),
			exportNode('Get Status', { operation: 'getStatus', exportId: '={{ $json.exportId }}' }),
			exportNode('Download Results', { operation: 'downloadResults', exportId: '={{ $json.exportId }}' }),
			exportNode('Execute Query', { operation: 'executeQuery', queryId: '#devices_by_os', queryParameters: { parameter: [{ name: 'os', value: 'Windows 11*' }] } }),
			exportNode('Export', { operation: 'export', queryId: '#all_devices', options: { maxWaitSeconds: 600 } }),
		],
		connections: [
			['Start Export', 'Get Status'],
			['Get Status', 'Download Results'],
		],
	});
}

/** @param {string} file */
function readExample(file) {
	return JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../docs/examples', file), 'utf8'));
}

/**
 * What to open and check: a workflow canvas, each node's panel (from the examples) and the
 * credential form. File names are the ones the README and docs/*.md show from docs/screenshots.
 * `workflows` are the ones to import besides the examples.
 * @param {{ id: string }} credential
 * @returns {{ shots: Shot[], credentials: CredentialShot[], workflows: object[] }}
 */
function editorShots(credential) {
	const operations = operationsWorkflow();
	const cmdb = readExample('cmdb-custom-field-sync.json');
	const nightly = readExample('nightly-device-inventory-export.json');
	const agent = readExample('ai-agent-export-tool.json');
	const highCpu = readExample('high-cpu-remediation.json');
	const ticket = readExample('ticket-workflow-on-device.json');
	const campaign = readExample('old-device-replacement-campaign.json');
	const retired = readExample('retired-devices-delete.json');
	const chat = readExample('chat-handoff-to-spark.json');
	const mcp = readExample('nexthink-mcp-server.json');
	const trigger = readExample('new-unsupported-os-devices-trigger.json');
	const alert = readExample('nexthink-alert-to-ticket.json');
	const exporter = readExample('nexthink-exporter-to-spreadsheet.json');
	const openTicket = readExample('nexthink-workflow-open-ticket.json');
	const nodeId = (/** @type {any} */ workflow, /** @type {string} */ name) => workflow.nodes.find((/** @type {any} */ node) => node.name === name).id;
	return {
		shots: [
			{ name: 'workflow canvas', file: 'workflow-cmdb-sync.png', workflowId: cmdb.id, expectTexts: ['Set CMDB Fields', 'Spreadsheet Rows'], kind: 'canvas' },
			{ name: 'AI agent canvas', file: 'workflow-ai-agent.png', workflowId: agent.id, expectTexts: ['AI Agent', 'Query Nexthink', 'Stop Runaway Process'], kind: 'canvas' },
			{ name: 'MCP server canvas', file: 'workflow-mcp-server.png', workflowId: mcp.id, expectTexts: ['MCP Server Trigger', 'Query Nexthink', 'Clear Teams Cache', 'Delete Device'], kind: 'canvas' },
			{
				name: 'Nexthink Export as an AI tool',
				file: 'node-export-tool.png',
				workflowId: agent.id,
				nodeId: nodeId(agent, 'Query Nexthink'),
				expectTexts: ['Description', 'Operation', 'Query ID'],
				kind: 'node',
			},
			{
				name: 'Nexthink Export panel',
				file: 'node-export.png',
				workflowId: nightly.id,
				nodeId: nodeId(nightly, 'Export All Devices'),
				expectTexts: ['Operation', 'Query ID', 'Compression', 'Options', 'Advanced Options'],
				kind: 'node',
			},
			{
				name: 'Nexthink Trigger panel',
				file: 'node-trigger.png',
				workflowId: trigger.id,
				nodeId: nodeId(trigger, 'New Devices'),
				expectTexts: ['Poll Times', 'Query ID', 'Key Columns', 'Trigger On', 'Row Added'],
				kind: 'node',
				height: 1100,
			},
			...[
				['Webhook', 'node-event-trigger-webhook.png', alert, 'Nexthink Alert', ['Channel', 'Authentication', 'Path', 'Event Table', 'Ignore Repeats', 'Compare Fields']],
				['Data Exporter', 'node-event-trigger-exporter.png', exporter, 'Nexthink Exporter', ['Channel', 'Authentication', 'Path', 'Ignore Repeats']],
				['Workflow Call', 'node-event-trigger-workflow-call.png', openTicket, 'Nexthink Workflow Call', ['Channel', 'Authentication', 'Path', 'Respond']],
			].map(([channel, file, workflow, name, expectTexts]) => ({
				name: `Nexthink Event Trigger panel, ${channel}`,
				// the URLs open: the production URL is what Nexthink gets
				clicks: [{ text: 'Webhook URLs', expectText: 'Production URL' }, { text: 'Production URL', expectText: '/webhook/nexthink-' }],
				file: /** @type {string} */ (file),
				workflowId: /** @type {any} */ (workflow).id,
				nodeId: nodeId(workflow, /** @type {string} */ (name)),
				expectTexts: /** @type {string[]} */ (expectTexts),
				kind: /** @type {const} */ ('node'),
				height: 1100,
			})),
			{
				name: 'Nexthink Event Trigger panel, Copy Into Nexthink',
				file: 'node-event-trigger-copy-into-nexthink.png',
				workflowId: alert.id,
				nodeId: nodeId(alert, 'Nexthink Alert'),
				expectTexts: ['Copy Into Nexthink'],
				kind: 'node',
				height: 1100,
				// the list of values for the Nexthink connector credential, the webhook and its template
				clicks: [{ selector: '[data-test-id="parameter-input-setupValues"]', expectText: 'Connector credential URL:' }],
			},
			{
				name: 'Nexthink Enrichment panel',
				file: 'node-enrichment.png',
				workflowId: cmdb.id,
				nodeId: nodeId(cmdb, 'Set CMDB Fields'),
				expectTexts: ['Object Type', 'Identify By', 'Fields to Set'],
				kind: 'node',
			},
			{ name: 'high-CPU remediation canvas', file: 'workflow-high-cpu-remediation.png', workflowId: highCpu.id, expectTexts: ['Find High-CPU Devices', 'Stop Runaway Process', 'Report'], kind: 'canvas' },
			{
				name: 'Nexthink Actions panel, Run Remote Action',
				file: 'node-actions-remote-action.png',
				workflowId: highCpu.id,
				nodeId: nodeId(highCpu, 'Stop Runaway Process'),
				// n8n heads the script inputs (a resource mapper) "Values to Send"
				// with Wait for Results on, the notice gives the status query to create
				expectTexts: ['Remote Action', 'Collector UIDs', 'Values to Send', 'Process name', 'CPU threshold (%)', 'Force', 'Wait for Results', 'remote_action.executions during past 7d', 'Status Query ID'],
				kind: 'node',
				height: 1450,
			},
			{
				name: 'Nexthink Actions panel, Workflow Run',
				file: 'node-actions-workflow-run.png',
				workflowId: ticket.id,
				nodeId: nodeId(ticket, 'Repair Teams'),
				// the notice comes from the workflow's details, read from the local server when the panel opens
				expectTexts: ['Workflow', 'API Version', 'Devices', 'Device Identifier', 'Users', 'Nexthink lists no parameters for this workflow'],
				kind: 'node',
				height: 1100,
			},
			{
				name: 'Nexthink Actions panel, Trigger Campaign',
				file: 'node-actions-campaign.png',
				workflowId: campaign.id,
				nodeId: nodeId(campaign, 'Ask About Replacement'),
				expectTexts: ['Campaign NQL ID', 'User SIDs', 'Expires After (Minutes)', 'Parameters', 'device_age_years'],
				kind: 'node',
				height: 1000,
			},
			{
				name: 'Nexthink Actions panel, Device Delete',
				file: 'node-actions-device-delete.png',
				workflowId: retired.id,
				nodeId: nodeId(retired, 'Delete Retired Devices'),
				expectTexts: ['Nexthink only queues each deletion', 'Device UID', 'Device Name', 'Maximum Devices per Run', 'Preview'],
				kind: 'node',
				height: 1000,
			},
			{ name: 'Spark hand-off chat canvas', file: 'workflow-chat-spark-handoff.png', workflowId: chat.id, expectTexts: ['AI Agent', 'Hand Off to Spark'], kind: 'canvas' },
			{
				name: 'Nexthink Actions as an AI tool, Spark Hand Off Conversation',
				file: 'node-actions-spark-handoff-tool.png',
				workflowId: chat.id,
				nodeId: nodeId(chat, 'Hand Off to Spark'),
				expectTexts: ['Description', 'User Principal Name', 'Message', 'Files', 'Metadata', 'Time Zone'],
				kind: 'node',
				height: 1200,
			},
			...[
				['Start Export', 'node-export-start.png', ['Query ID', 'Compression']],
				['Get Status', 'node-export-status.png', ['Export ID']],
				['Download Results', 'node-export-download.png', ['Results Source', 'Export ID']],
				['Execute Query', 'node-export-execute.png', ['Query ID', 'Query Parameters']],
				['Export', 'node-export-options.png', ['Query ID', 'Maximum Wait (Seconds)', 'Advanced Options']],
			].map(([name, file, expectTexts]) => ({
				name: `Nexthink Export panel, ${name}`,
				file: /** @type {string} */ (file),
				workflowId: operations.id,
				nodeId: nodeId(operations, /** @type {string} */ (name)),
				expectTexts: /** @type {string[]} */ (expectTexts),
				kind: /** @type {const} */ ('node'),
			})),
		],
		workflows: [operations],
		credentials: [
			{ name: 'Nexthink API credential form', file: 'credential.png', credentialId: credential.id, expectTexts: ['Client ID', 'Token URL', 'Connection tested successfully'] },
			{ name: 'new Nexthink API credential', file: 'credential-new.png', createType: 'Nexthink API', expectTexts: ['Instance Name', 'Region', 'Client ID', 'Use Custom URLs'] },
			{ name: 'new Nexthink Outbound Connector API credential', file: 'credential-connector-new.png', createType: 'Nexthink Outbound Connector API', expectTexts: ['Authorization Type', 'Token'] },
		],
	};
}

/**
 * Opens each shot and the credential forms, checks them and writes PNGs to `outDir`.
 * @param {{ baseUrl: string, owner: { email: string, password: string }, outDir: string, shots: Shot[], credentials: CredentialShot[] }} options
 * @returns {Promise<string[]>} the files written
 */
async function captureEditor(options) {
	const { chromium } = require('playwright-core');
	if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
	fs.mkdirSync(options.outDir, { recursive: true });
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
	});
	/** @type {string[]} */
	const written = [];
	let current = 'sign-in';
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' });
	const page = await context.newPage();
	page.setDefaultTimeout(90_000);
	try {
		await signIn(options.baseUrl, options.owner, page);
		for (const shot of options.shots) {
			current = shot.name;
			await page.setViewportSize({ width: 1440, height: shot.height ?? 900 });
			const url = shot.nodeId ? `${options.baseUrl}/workflow/${shot.workflowId}/${shot.nodeId}` : `${options.baseUrl}/workflow/${shot.workflowId}`;
			await page.goto(url, { waitUntil: 'domcontentloaded' });
			if (shot.kind === 'node') {
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.waitFor({ state: 'visible' });
				await assertRendered(ndv, shot.expectTexts, shot.name);
				for (const click of shot.clicks ?? []) {
					const target = click.selector ? page.locator(click.selector) : ndv.getByText(click.text ?? '', { exact: true });
					const shown = page.getByText(click.expectText, { exact: false }).filter({ visible: true }).first();
					// a click while the panel still loads (a list's options) may be lost: up to three tries
					for (let attempt = 1; attempt <= 3; attempt++) {
						await target.filter({ visible: true }).first().click();
						if (await shown.waitFor({ state: 'visible', timeout: 20_000 }).then(() => true, () => false)) break;
						if (attempt === 3) throw new Error(`${shot.name}: "${click.expectText}" did not appear after clicking ${click.text ?? click.selector}`);
					}
				}
			} else {
				await page.locator('[data-test-id="canvas-node"]').first().waitFor({ state: 'visible' });
				await assertRendered(page.locator('body'), shot.expectTexts, shot.name);
			}
			written.push(await settleAndCapture(page, path.join(options.outDir, shot.file)));
		}
		for (const credential of options.credentials) {
			current = credential.name;
			await page.setViewportSize({ width: 1440, height: 900 });
			await page.goto(`${options.baseUrl}/home/credentials/${credential.credentialId ?? 'create'}`, { waitUntil: 'domcontentloaded' });
			if (credential.createType !== undefined) await pickCredentialType(page, credential.createType);
			const modal = page.locator('[data-test-id="editCredential-modal"]');
			await modal.waitFor({ state: 'visible' });
			await assertRendered(modal, credential.expectTexts, credential.name);
			written.push(await settleAndCapture(page, path.join(options.outDir, credential.file)));
		}
	} catch (error) {
		// keep what the browser showed, to see why
		const file = path.join(options.outDir, `failed-${current.replace(/[^a-z0-9]+/gi, '-')}.png`);
		await page.screenshot({ path: file }).catch(() => undefined);
		if (error instanceof Error) error.message += ` (screenshot: ${file})`;
		throw error;
	} finally {
		await browser.close();
	}
	return written;
}

/**
 * In the "Add new credential" dialog (`/home/credentials/create`), picks the credential type by its
 * display name and continues to its empty form.
 * @param {import('playwright-core').Page} page @param {string} typeName
 */
async function pickCredentialType(page, typeName) {
	const select = page.locator('[data-test-id="new-credential-type-select"]');
	await select.waitFor({ state: 'visible' });
	await select.click();
	await page.keyboard.type(typeName);
	await page.locator('[data-test-id="new-credential-type-select-option"]').filter({ hasText: typeName }).first().click();
	await page.locator('[data-test-id="new-credential-type-button"]').click();
}

/** Lets fonts and icons settle, then takes the picture. @param {import('playwright-core').Page} page @param {string} file */
async function settleAndCapture(page, file) {
	await page.waitForTimeout(800);
	await page.screenshot({ path: file });
	return file;
}

module.exports = { captureEditor, editorShots };
