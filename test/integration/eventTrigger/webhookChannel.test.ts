/**
 * The Nexthink Event Trigger's Webhook channel over real HTTP (n8n-core 2.x and 1.x contexts,
 * test/helpers/eventTriggerHarness.ts), with the test server's Nexthink side (test/server/outbound.js)
 * sending: every method, templated payloads (filled without escaping, or literal on a Test send),
 * right and wrong credentials, repeats and delays.
 */
import { NexthinkEventTrigger } from '../../../nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node';
import { serveEventTrigger, type ServedTrigger } from '../../helpers/eventTriggerHarness';
import { disposeHarness, loadOptionsContext } from '../../helpers/harness';
import { FEW_N8N_RUNS_TIMEOUT_MS } from '../../helpers/timeouts';

import { splitForNexthink } from '../../../nodes/Nexthink/eventTrigger/setupGuidance';

const { ALERT_TEMPLATE, joinUrl, send, sendWebhook } = require('../../server/outbound');

const TOKEN = 'nx-webhook-token-5f0c9a7e2b1d4c36';
const BEARER = { authType: 'bearer', token: TOKEN };
const BASIC = { authType: 'basic', user: 'nexthink', password: 'basic-password-8d1e6b2f7a93' };
const ALERT = {
	'alert.monitor.name': 'High CPU',
	'alert.status': 'open',
	'alert.context': 'PC-0042',
	'monitor.priority': 'high',
	trigger_time: '2026-11-27T10:15:00Z',
	recovery_time: '',
};

jest.setTimeout(FEW_N8N_RUNS_TIMEOUT_MS);
afterAll(() => disposeHarness());

describe('Webhook channel', () => {
	let trigger: ServedTrigger;
	afterEach(async () => await trigger?.close());

	it('starts one execution per alert, with the body, redacted headers, the query and the table it saw', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		for (const method of ['POST', 'PUT', 'PATCH']) {
			const [answer] = await sendWebhook({ url: `${trigger.url}?source=nexthink`, method, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT });
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({ status: 'ok', items: 1, duplicates: 0 });
		}
		expect(trigger.executions).toHaveLength(3);
		const [item] = trigger.executions[1];
		expect(item.json).toMatchObject({
			body: { source: 'nexthink', table: 'alert.alerts', monitor: 'High CPU', status: 'open', context: 'PC-0042', recovered: '' },
			query: { source: 'nexthink' },
			method: 'PUT',
			nexthink: { channel: 'webhook', eventTable: 'alert.alerts', eventTableBasis: 'declared', isTest: false, eventCount: 1 },
		});
		expect((item.json.headers as Record<string, string>).authorization).toBe('[redacted]');
		expect(JSON.stringify(trigger.executions)).not.toContain(TOKEN);
	});

	it('accepts the token without a scheme, and Basic credentials', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		const [bare] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN, scheme: '' }, template: ALERT_TEMPLATE, values: ALERT });
		expect(bare.status).toBe(200);
		await trigger.close();
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BASIC });
		const [basic] = await sendWebhook({ url: trigger.url, credential: { type: 'basic', user: BASIC.user, password: BASIC.password }, template: ALERT_TEMPLATE, values: ALERT });
		expect(basic.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});

	it.each([
		['no credential', { type: 'none' }],
		['a wrong token', { type: 'bearer', token: 'nx-webhook-token-5f0c9a7e2b1d4c37' }],
		['the right token as Basic', { type: 'basic', user: 'x', password: TOKEN }],
		['a Basic value of the right user with a wrong password', { type: 'basic', user: 'nexthink', password: 'nope' }],
	])('answers 401 to %s and starts nothing, logging no secret', async (_, credential) => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: credential.type === 'basic' && (credential as { user: string }).user === 'nexthink' ? BASIC : BEARER });
		const [answer] = await sendWebhook({ url: trigger.url, credential, template: ALERT_TEMPLATE, values: ALERT });
		expect(answer.status).toBe(401);
		expect(answer.json).toMatchObject({ status: 'error', error: 'unauthorized' });
		expect(answer.headers['www-authenticate']).toBeDefined();
		expect(trigger.executions).toEqual([]);
		expect(trigger.logs.join('\n')).toMatch(/refused a call: 401 unauthorized/);
		expect(trigger.logs.join('\n') + answer.text).not.toMatch(new RegExp(`${TOKEN}|${BASIC.password}|nope`));
	});

	it('lets anyone in only when the user chose None', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', authentication: 'none' } });
		const [answer] = await sendWebhook({ url: trigger.url, template: ALERT_TEMPLATE, values: ALERT });
		expect(answer.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});

	it('answers 405 to a method webhooks do not use, after the credential check', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		const unauthorized = await send({ url: trigger.url, method: 'GET' });
		expect(unauthorized.status).toBe(401);
		const answer = await send({ url: trigger.url, method: 'GET', credential: { type: 'bearer', token: TOKEN } });
		expect(answer.status).toBe(405);
		expect(answer.headers.allow).toBe('POST, PUT, PATCH');
		expect(trigger.executions).toEqual([]);
	});

	it('flags a Test send (placeholders left literal) and still names the table', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER, mode: 'manual' });
		const template = '{"monitor":"{{alert.monitor.name}}","status":"{{alert.status}}"}';
		const [answer] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template, testSend: true });
		expect(answer.status).toBe(200);
		expect(trigger.executions[0][0].json.nexthink).toMatchObject({ isTest: true, eventTable: 'alert.alerts', eventTableBasis: 'placeholders' });
	});

	it('names the configured table when the payload does not say it', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', eventTable: 'remote_action.executions' }, credentials: BEARER });
		await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: '{"device":"{{d}}"}', values: { d: 'PC-1' } });
		expect(trigger.executions[0][0].json.nexthink).toMatchObject({ eventTable: 'remote_action.executions', eventTableBasis: 'configured' });
	});

	it('answers 400 with where the JSON breaks when an unescaped value broke the template, and starts nothing', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		const [answer] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: { ...ALERT, 'alert.context': 'Laptop 14" PC-7' } });
		expect(answer.status).toBe(400);
		expect(answer.json).toMatchObject({ status: 'error', error: 'invalid_json', message: expect.stringMatching(/line 1, column \d+/) });
		expect(answer.text).not.toContain('Laptop');
		expect(trigger.executions).toEqual([]);
	});

	it.each([
		['a form', 'application/x-www-form-urlencoded', 400, 'unsupported_content_type'],
		['XML', 'application/xml', 400, 'unsupported_content_type'],
	])('answers %s with 400', async (_, contentType, status, error) => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: 'a=1', contentType });
		expect([answer.status, (answer.json as { error: string }).error]).toEqual([status, error]);
		expect(trigger.executions).toEqual([]);
	});

	it.each([['text/plain'], ['application/json; charset=utf-8'], [null]])('reads a JSON body sent as %s', async (contentType) => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: '{"monitor":"CPU"}', contentType });
		expect(answer.status).toBe(200);
		expect(trigger.executions[0][0].json.body).toEqual({ monitor: 'CPU' });
	});

	it("answers 413 over the node's limit, declared or streamed, and over n8n's payload limit, and starts nothing", async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', options: { maxBodySizeMb: 0.001 } }, credentials: BEARER, payloadSizeMaxMb: 0.002 });
		const big = JSON.stringify({ note: 'x'.repeat(1500) });
		const declared = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: big });
		expect(declared.status).toBe(413);
		expect((declared.json as { message: string }).message).toMatch(/limit of 0.000999 MB \(Maximum Body Size\)/);
		const streamed = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: [big.slice(0, 700), big.slice(700)] });
		expect(streamed.status).toBe(413);
		await trigger.close();
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER, payloadSizeMaxMb: 0.001 });
		const overN8n = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: [big] });
		expect(overN8n.status).toBe(413);
		expect((overN8n.json as { message: string }).message).toMatch(/N8N_PAYLOAD_SIZE_MAX/);
		expect(trigger.executions).toEqual([]);
	});

	it('ignores repeats of an event within the window (also after delays), and keeps what it saw in static data', async () => {
		trigger = await serveEventTrigger({
			parameters: { mode: 'webhook', dedupe: true, dedupeFields: 'monitor, context, triggered, status', dedupeWindowMinutes: 60 },
			credentials: BEARER,
		});
		const credential = { type: 'bearer', token: TOKEN };
		const answers = await sendWebhook({ url: trigger.url, credential, template: ALERT_TEMPLATE, values: ALERT, repeats: 3, delayMs: 20 });
		expect(answers.map((answer: { json: unknown }) => answer.json)).toEqual([
			{ status: 'ok', items: 1, duplicates: 0 },
			{ status: 'ok', items: 0, duplicates: 1 },
			{ status: 'ok', items: 0, duplicates: 1 },
		]);
		const [recovered] = await sendWebhook({ url: trigger.url, credential, template: ALERT_TEMPLATE, values: { ...ALERT, 'alert.status': 'recovered', recovery_time: '2026-11-27T11:00:00Z' } });
		expect(recovered.json).toEqual({ status: 'ok', items: 1, duplicates: 0 });
		expect(trigger.executions.map((items) => (items[0].json.body as { status: string }).status)).toEqual(['open', 'recovered']);
		expect(Object.keys((trigger.staticData()['node:Nexthink Event Trigger'] as { dedupe: { seen: object } }).dedupe.seen)).toHaveLength(2);
	});

	it('takes switches given as text by an expression, and refuses a window that is not a positive number with what to fix', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', dedupe: 'true', dedupeWindowMinutes: '30' }, credentials: BEARER });
		const answers = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT, repeats: 2 });
		expect(answers.map((answer: { json: { items: number } }) => answer.json.items)).toEqual([1, 0]);
		await trigger.close();
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', dedupe: true, dedupeWindowMinutes: 'an hour' }, credentials: BEARER });
		const [refused] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT });
		expect([refused.status, refused.json]).toEqual([500, { status: 'error', error: 'configuration', message: 'The trigger\'s Window (Minutes) must be a positive number, not "an hour"' }]);
		expect(trigger.executions).toEqual([]);
	});

	it('refuses a switch that is neither on nor off (the one boolean reading), starting nothing', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', dedupe: 'maybe' }, credentials: BEARER });
		const [refused] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT });
		expect(refused.status).toBe(500);
		expect(refused.json).toMatchObject({ status: 'error', error: 'configuration', message: expect.stringMatching(/^"Ignore Repeats" must be true or false, got "maybe"/) });
		expect(trigger.executions).toEqual([]);
	});

	it('refuses Ignore Repeats in a workflow whose ID n8n 1.x would not save static data for, naming the ID', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', dedupe: true }, credentials: BEARER, workflowId: 'nxExExporterSheet' });
		const [refused] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT });
		expect(refused.status).toBe(500);
		expect(refused.json).toMatchObject({ status: 'error', error: 'configuration', message: expect.stringContaining('"nxExExporterSheet" has 17 characters') });
		expect(trigger.executions).toEqual([]);
		await trigger.close();
		// an ID of n8n's own length (16) is kept, and so is the switch off with a long ID
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook', dedupe: true }, credentials: BEARER, workflowId: 'aB3dE5gH7jK9mN1p' });
		const answers = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT, repeats: 2 });
		expect(answers.map((answer: { json: { items: number } }) => answer.json.items)).toEqual([1, 0]);
		await trigger.close();
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER, workflowId: 'nxExExporterSheet' });
		const [started] = await sendWebhook({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, template: ALERT_TEMPLATE, values: ALERT });
		expect(started.json).toEqual({ status: 'ok', items: 1, duplicates: 0 });
	});

	it('refuses a Channel it does not know, starting nothing', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'alerts' }, credentials: BEARER });
		const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: '{}' });
		expect([answer.status, (answer.json as { error: string }).error]).toEqual([500, 'configuration']);
		expect(trigger.executions).toEqual([]);
	});

	it('answers an empty body 200 and starts nothing', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: TOKEN }, body: '' });
		expect([answer.status, answer.json]).toEqual([200, { status: 'ok', items: 0, duplicates: 0 }]);
		expect(trigger.executions).toEqual([]);
	});
});

describe('setup help', () => {
	it('lists what goes into Nexthink for the production URL, and the template of the chosen table', async () => {
		const context = loadOptionsContext({ nodeType: new NexthinkEventTrigger() as never, parameters: { mode: 'webhook', path: 'nexthink/alerts', eventTable: 'alert.alerts' }, credentials: {}, path: 'parameters.setupValues' });
		const options = await new NexthinkEventTrigger().methods.loadOptions.setupValues.call(context);
		const names = options.map((option) => option.name);
		// the field's default ('') is the first entry, so the editor shows no warning before a choice
		expect(options[0]).toEqual({ name: 'Open to See What to Copy (Choosing Changes Nothing)', value: '' });
		expect(names[1]).toBe('Connector credential URL: http://127.0.0.1:5678/');
		expect(names[2]).toBe('Resource: webhook/nexthink/alerts');
		expect(names.join('\n')).toMatch(/NQL condition: alert\.alerts \| list alert\.monitor\.name/);
		expect(names.join('\n')).toMatch(/Warning: Nexthink calls only HTTPS/);
	});

	it('gives a credential URL and Resource that Nexthink joins into the trigger URL, either way; a split with two slashes or none misses it', async () => {
		const trigger = await serveEventTrigger({ parameters: { mode: 'webhook' }, credentials: BEARER });
		try {
			const split = splitForNexthink(trigger.url);
			const credential = { type: 'bearer', token: TOKEN };
			for (const [credentialUrl, resource] of [
				[split.credentialUrl, split.resource],
				[split.alternative.credentialUrl, split.alternative.resource],
			]) {
				const [answer] = await sendWebhook({ url: joinUrl(credentialUrl, resource), credential, template: ALERT_TEMPLATE, values: ALERT });
				expect(answer.status).toBe(200);
			}
			const [doubled] = await sendWebhook({ url: joinUrl(split.credentialUrl, split.alternative.resource), credential, template: ALERT_TEMPLATE, values: ALERT });
			expect(doubled.status).toBe(404);
			await expect(sendWebhook({ url: joinUrl(split.alternative.credentialUrl, split.resource), credential, template: ALERT_TEMPLATE, values: ALERT })).rejects.toThrow();
			expect(trigger.executions).toHaveLength(2);
		} finally {
			await trigger.close();
		}
	});

	it("tests a connector credential's values without calling anything", async () => {
		const test = new NexthinkEventTrigger().methods.credentialTest.checkConnectorCredential;
		expect(await test.call({} as never, { id: '1', name: 'c', type: 'nexthinkConnectorApi', data: BEARER })).toEqual({ status: 'OK', message: expect.any(String) });
		expect(await test.call({} as never, { id: '1', name: 'c', type: 'nexthinkConnectorApi', data: { authType: 'bearer', token: 'short' } })).toMatchObject({ status: 'Error' });
	});
});
