/**
 * The Workflow Call channel over real HTTP (n8n-core 2.x and 1.x contexts): a Nexthink workflow's
 * Service/API step, played by the test server (any of five methods, 10 s, outputs read by JSONPath),
 * gets the fixed JSON at once; the execution gets the call's body and query. The answers of the
 * last node and of a Respond to Webhook node come from n8n itself: the e2e suite checks them
 * (test/e2e/cases/eventTriggerCases.js).
 */
import { serveEventTrigger, type ServedTrigger } from '../../helpers/eventTriggerHarness';
import { disposeHarness } from '../../helpers/harness';
import { FEW_N8N_RUNS_TIMEOUT_MS } from '../../helpers/timeouts';

const { callWorkflow, send } = require('../../server/outbound');

const credentials = { authType: 'basic', user: 'nexthink-workflows', password: 'wf-password-3c9e1a7b5d20' };
const credential = { type: 'basic', user: 'nexthink-workflows', password: 'wf-password-3c9e1a7b5d20' };

jest.setTimeout(FEW_N8N_RUNS_TIMEOUT_MS);
afterAll(() => disposeHarness());

let trigger: ServedTrigger;
afterEach(async () => await trigger?.close());

describe('Workflow Call channel', () => {
	it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('answers a %s call at once with the fixed JSON, which the thinklet reads by JSONPath', async (method) => {
		trigger = await serveEventTrigger({
			parameters: { mode: 'workflowCall', responseMode: 'onReceived', responseJson: '{"status":"received","ticket":{"id":"INC0042"}}' },
			credentials,
		});
		const result = await callWorkflow({
			url: `${trigger.url}?device=PC-0042`,
			method,
			credential,
			payload: method === 'GET' || method === 'DELETE' ? undefined : { device: 'PC-0042', user: 'jdoe' },
			outputs: { status: '$.status', ticket: '$.ticket.id' },
		});
		expect(result).toMatchObject({ failed: undefined, status: 200, outputs: { status: 'received', ticket: 'INC0042' } });
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0][0].json).toMatchObject({
			body: method === 'GET' || method === 'DELETE' ? {} : { device: 'PC-0042', user: 'jdoe' },
			query: { device: 'PC-0042' },
			method,
			nexthink: { channel: 'workflowCall' },
		});
	});

	it('answers a JSON error the thinklet can branch on when the credential is wrong or the body broken', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'workflowCall', responseMode: 'onReceived' }, credentials });
		const unauthorized = await callWorkflow({ url: trigger.url, credential: { ...credential, password: 'x' }, payload: {}, outputs: { status: '$.status', error: '$.error' } });
		expect(unauthorized).toMatchObject({ status: 401, outputs: { status: 'error', error: 'unauthorized' } });
		const broken = await send({ url: trigger.url, credential, body: '{"device": "PC-0042\n"}' });
		expect(broken.status).toBe(400);
		expect(broken.json).toMatchObject({ status: 'error', error: 'invalid_json' });
		expect(trigger.executions).toEqual([]);
	});

	it('refuses a Response JSON that is not JSON with a configuration error, starting nothing', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'workflowCall', responseMode: 'onReceived', responseJson: '{"status": ' }, credentials });
		const result = await callWorkflow({ url: trigger.url, credential, payload: {}, outputs: { error: '$.error' } });
		expect(result).toMatchObject({ status: 500, outputs: { error: 'configuration' } });
		expect(trigger.executions).toEqual([]);
	});
});
