/**
 * The local Nexthink server: per-target executions of remote actions, workflows and campaigns, read
 * through stored NQL queries over `remote_action.executions`, `workflow.executions` and
 * `campaign.responses`; how their status moves from waiting to final (polls, time, expiry, custom
 * outcomes); the demo estate's action queries; the recording server's action answers.
 */
export {};

const { startNexthinkServer, ACTION_TABLES, ACTION_STATUSES, statusQueryNql } = require('..');
const { fetchToken, apiRequest, runExport } = require('../client');
const { startRecordingServer, RECORDED_REQUEST_ID } = require('../recorder');

const COLLECTOR_1 = 'e0000000-0000-4000-8000-000000000001';
const COLLECTOR_2 = 'e0000000-0000-4000-8000-000000000002';
const OFFLINE_COLLECTOR = 'e9999999-0000-4000-8000-000000000001';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const BOB = 'S-1-5-21-1004336348-1177238915-682003330-1002';

describe('status queries over the action tables', () => {
	let server: any;
	let token: string;

	beforeEach(async () => {
		// Tokens outlive the clock jumps of the expiry tests.
		server = await startNexthinkServer({ tokenLifetimeSeconds: 30 * 24 * 3600 });
		token = await fetchToken(server);
		server.addActionStatusQuery({ id: '#ra_status', table: 'remote_action.executions' });
		server.addActionStatusQuery({ id: '#wf_status', table: 'workflow.executions' });
		server.addActionStatusQuery({ id: '#campaign_status', table: 'campaign.responses' });
	});

	afterEach(async () => {
		await server.close();
	});

	const post = async (path: string, json: unknown) => {
		const response = await apiRequest(server, token, 'POST', path, { json });
		expect(response.status).toBe(200);
		return response.json();
	};
	const read = async (queryId: string, requestId: string) => (await post('/api/v2/nql/execute', { queryId, parameters: { request_id: requestId } })).data;
	const runRemoteAction = (devices: string[], extra: Record<string, unknown> = {}) =>
		post('/api/v1/act/execute', { remoteActionId: '#restart_service', devices, params: { ServiceName: 'BITS', StartType: 'Manual' }, ...extra });

	it('remote_action.executions: one row per device, pending → in_progress → success with the outputs', async () => {
		const { requestId } = await runRemoteAction([COLLECTOR_1, COLLECTOR_2]);
		const first = await read('#ra_status', requestId);
		expect(first).toEqual([
			{
				request_id: requestId,
				'remote_action.nql_id': '#restart_service',
				'remote_action.name': 'Restart a Windows service',
				'device.name': 'LAPTOP-ZRH-001',
				'device.uid': 'd0000000-0000-4000-8000-000000000001',
				'device.collector.uid': COLLECTOR_1,
				trigger_method: 'api',
				purpose: 'remediation',
				time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				status: 'pending',
				status_details: '',
				outputs: '',
			},
			expect.objectContaining({ 'device.name': 'LAPTOP-ZRH-002', status: 'pending' }),
		]);
		expect((await read('#ra_status', requestId)).map((row: any) => row.status)).toEqual(['in_progress', 'in_progress']);
		const done = await read('#ra_status', requestId);
		expect(done.map((row: any) => row.status)).toEqual(['success', 'success']);
		expect(JSON.parse(done[0].outputs)).toEqual({ ServiceStatus: 'ServiceStatus on LAPTOP-ZRH-001' });
		expect((await read('#ra_status', requestId)).map((row: any) => row.status)).toEqual(['success', 'success']);
		expect(await read('#ra_status', 'another-request')).toEqual([]);
	});

	it('an unknown Collector never runs: it stays waiting, then ends expired once expiresInMinutes passed', async () => {
		const { requestId } = await runRemoteAction([COLLECTOR_1, OFFLINE_COLLECTOR], { expiresInMinutes: 90 });
		for (let poll = 0; poll < 4; poll++) await read('#ra_status', requestId);
		let rows = await read('#ra_status', requestId);
		expect(rows.map((row: any) => [row['device.collector.uid'], row['device.name'], row.status])).toEqual([
			[COLLECTOR_1, 'LAPTOP-ZRH-001', 'success'],
			[OFFLINE_COLLECTOR, '', 'in_progress'],
		]);
		server.advanceClock(89 * 60000);
		expect((await read('#ra_status', requestId))[1].status).toBe('in_progress');
		server.advanceClock(60000);
		rows = await read('#ra_status', requestId);
		expect(rows.map((row: any) => row.status)).toEqual(['success', 'expired']);
		expect(rows[1].status_details).toMatch(/expired/i);
	});

	it('an object’s outcome function decides the final status per target', async () => {
		server.addRemoteAction({
			id: '#flaky',
			name: 'Flaky',
			outputs: [{ id: 'Result' }],
			outcome: (target: any) =>
				target.object?.name === 'LAPTOP-ZRH-002' ? { status: 'failure', statusDetails: 'Script exited with code 3', outputs: { Result: 'error' } } : undefined,
		});
		const { requestId } = await post('/api/v1/act/execute', { remoteActionId: '#flaky', devices: [COLLECTOR_1, COLLECTOR_2] });
		let rows: any[] = [];
		for (let poll = 0; poll < 3; poll++) rows = await read('#ra_status', requestId);
		expect(rows.map((row) => [row.status, row.status_details, row.outputs])).toEqual([
			['success', '', '{"Result":"Result on LAPTOP-ZRH-001"}'],
			['failure', 'Script exited with code 3', '{"Result":"error"}'],
		]);
	});

	it('an outcome can give one target its own pace: the others are final while it still runs', async () => {
		server.addRemoteAction({ id: '#slow_on_two', name: 'Slow on two', outcome: (target: any) => (target.object?.name === 'LAPTOP-ZRH-002' ? { completeAfterPolls: 5 } : { completeAfterPolls: 0 }) });
		const { requestId } = await post('/api/v1/act/execute', { remoteActionId: '#slow_on_two', devices: [COLLECTOR_1, COLLECTOR_2] });
		const statuses = [];
		for (let poll = 0; poll < 6; poll++) statuses.push((await read('#ra_status', requestId)).map((row: any) => row.status));
		expect(statuses).toEqual([
			['success', 'pending'],
			['success', 'in_progress'],
			['success', 'in_progress'],
			['success', 'in_progress'],
			['success', 'in_progress'],
			['success', 'success'],
		]);
	});

	it('actionCompleteAfterMs and actionCompleteAfterPolls are read live (server clock, no sleeping)', async () => {
		server.options.actionCompleteAfterPolls = 0;
		server.options.actionCompleteAfterMs = 60000;
		const { requestId } = await runRemoteAction([COLLECTOR_1]);
		for (let poll = 0; poll < 5; poll++) expect((await read('#ra_status', requestId))[0].status).not.toBe('success');
		server.advanceClock(60000);
		expect((await read('#ra_status', requestId))[0].status).toBe('success');
		server.options.actionCompleteAfterMs = 0;
		const second = await runRemoteAction([COLLECTOR_1]);
		expect((await read('#ra_status', second.requestId))[0].status).toBe('success');
	});

	it('an export of a status query is one poll; its file holds the rows as read at its start', async () => {
		const { requestId } = await runRemoteAction([COLLECTOR_1]);
		const statuses = [];
		for (let poll = 0; poll < 3; poll++) {
			const { exportId, status } = await runExport(server, token, { queryId: '#ra_status', parameters: { request_id: requestId } });
			expect(status.status).toBe('COMPLETED');
			const csv = server.csvFor(exportId).split('\n');
			expect(csv[0]).toBe('request_id,remote_action.nql_id,remote_action.name,device.name,device.uid,device.collector.uid,trigger_method,purpose,time,status,status_details,outputs');
			statuses.push(csv[1].split(',')[9]);
		}
		expect(statuses).toEqual(['pending', 'in_progress', 'success']);
	});

	it('a status query needs its $request_id parameter (400 otherwise)', async () => {
		const response = await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#ra_status' } });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: 'Missing value for query parameter $request_id', code: 400, source: 'parameters' });
	});

	it('gives the status query its NQL text, with the request id substituted in executedQuery', async () => {
		expect(statusQueryNql('campaign.responses')).toBe(
			`campaign.responses during past 7d | where request_id == $request_id | list ${ACTION_TABLES['campaign.responses'].header.join(', ')}`,
		);
		expect(ACTION_STATUSES.remote_action.final).toEqual(['success', 'failure', 'expired']);
		const body = await post('/api/v2/nql/execute', { queryId: '#wf_status', parameters: { request_id: 'r-1' } });
		expect(body.executedQuery).toBe(
			'workflow.executions during past 7d | where request_id == "r-1" | list request_id, execution_id, request_time, workflow.nql_id, workflow.name, ' +
				'device.name, device.collector.uid, user.name, user.sid, user.upn, trigger_method, time, status, status_details, outcome, outcome_details',
		);
	});

	it('workflow.executions: one row per execution id, in_progress → success / failure, with an outcome', async () => {
		server.addWorkflow({
			id: '#with_outcome',
			name: 'With outcome',
			dependency: 'USER',
			outcome: (target: any) => (target.object ? { outcome: 'password_changed', outcomeDetails: 'in 2 minutes' } : undefined),
		});
		const started = await post('/api/v2/workflows/execute', { workflowId: '#with_outcome', users: [{ sid: ALICE }, { upn: 'nobody@example.com' }] });
		const statuses = [];
		let rows: any[] = [];
		for (let poll = 0; poll < 3; poll++) {
			rows = await read('#wf_status', started.requestUuid);
			statuses.push(rows.map((row) => row.status));
		}
		expect(statuses).toEqual([
			['in_progress', 'in_progress'],
			['in_progress', 'in_progress'],
			['success', 'failure'],
		]);
		expect(rows.map((row) => row.execution_id)).toEqual(started.executionsUuids);
		expect(rows[0]).toMatchObject({ 'workflow.nql_id': '#with_outcome', 'user.name': 'Alice Martin', 'user.upn': 'alice.martin@example.com', outcome: 'password_changed', outcome_details: 'in 2 minutes' });
		expect(rows[1]).toMatchObject({ 'user.sid': '', status_details: 'No user matches the identifiers', outcome: '' });
	});

	it('campaign.responses: one row per user request, pending → answered; declined by outcome; never → expired', async () => {
		server.addCampaign({
			id: '#pulse',
			name: 'Pulse',
			outcome: (target: any) => (target.object.sid === BOB ? { status: 'declined' } : target.object.name === 'Chloé Dubois' ? { never: true } : undefined),
		});
		const chloe = 'S-1-5-21-1004336348-1177238915-682003330-1003';
		const { requests } = await post('/api/v1/euf/campaign/trigger', { campaignNqlId: '#pulse', userSid: [ALICE, BOB, chloe], expiresInMinutes: 30 });
		const statesOf = async () => {
			const states = [];
			for (const { requestId } of requests) {
				const rows = await read('#campaign_status', requestId);
				expect(rows).toHaveLength(1);
				states.push(rows[0].state);
			}
			return states;
		};
		expect(await statesOf()).toEqual(['pending', 'pending', 'pending']);
		await statesOf();
		expect(await statesOf()).toEqual(['answered', 'declined', 'pending']);
		server.advanceClock(30 * 60000);
		expect(await statesOf()).toEqual(['answered', 'declined', 'expired']);
		const [row] = await read('#campaign_status', requests[0].requestId);
		expect(row).toEqual({
			request_id: requests[0].requestId,
			'campaign.nql_id': '#pulse',
			'campaign.name': 'Pulse',
			'user.name': 'Alice Martin',
			'user.sid': ALICE,
			'user.upn': 'alice.martin@example.com',
			request_time: expect.stringMatching(/^\d{4}-/),
			time: expect.stringMatching(/^\d{4}-/),
			state: 'answered',
		});
	});

	it('actionWaitingStates unlisted: the not-yet-final statuses take spellings no client lists, read live', async () => {
		server.options.actionWaitingStates = 'unlisted';
		const { requestId } = await runRemoteAction([COLLECTOR_1]);
		const remoteAction = [];
		for (let poll = 0; poll < 3; poll++) remoteAction.push((await read('#ra_status', requestId))[0].status);
		expect(remoteAction).toEqual(['waiting_for_device', 'executing', 'success']);
		const { requests } = await post('/api/v1/euf/campaign/trigger', { campaignNqlId: '#it_satisfaction', userSid: [ALICE], expiresInMinutes: 30 });
		expect((await read('#campaign_status', requests[0].requestId))[0].state).toBe('targeted');
		server.addWorkflow({ id: '#approval', name: 'Approval', waitForEvent: true });
		const started = await post('/api/v2/workflows/execute', { workflowId: '#approval', devices: [{ collectorUid: COLLECTOR_1 }] });
		expect((await read('#wf_status', started.requestUuid))[0].status).toBe('waiting_for_event');
		server.options.actionWaitingStates = 'listed';
		expect((await read('#wf_status', started.requestUuid))[0].status).toBe('waiting');
		expect(ACTION_STATUSES.campaign.unlistedWaiting).toEqual(['targeted']);
	});

	it('actionColumnNames qualified: a status query names the table\'s own fields fully qualified, linked fields as they are, read live', async () => {
		server.options.actionColumnNames = 'qualified';
		const { requestId } = await runRemoteAction([COLLECTOR_1]);
		const [row] = await read('#ra_status', requestId);
		expect(Object.keys(row)).toEqual([
			'remote_action.execution.request_id',
			'remote_action.nql_id',
			'remote_action.name',
			'device.name',
			'device.uid',
			'device.collector.uid',
			'remote_action.execution.trigger_method',
			'remote_action.execution.purpose',
			'remote_action.execution.time',
			'remote_action.execution.status',
			'remote_action.execution.status_details',
			'remote_action.execution.outputs',
		]);
		// timestamps keep their type under the qualified name (execute renders them without a zone offset here)
		expect(row['remote_action.execution.time']).toMatch(/^\d{4}-\d\d-\d\dT/);
		const v1 = await post('/api/v1/nql/execute', { queryId: '#campaign_status', parameters: { request_id: 'none' } });
		expect(v1.headers).toEqual([
			'campaign.response.request_id',
			'campaign.nql_id',
			'campaign.name',
			'user.name',
			'user.sid',
			'user.upn',
			'campaign.response.request_time',
			'campaign.response.time',
			'campaign.response.state',
		]);
		const { exportId } = await runExport(server, token, { queryId: '#wf_status', parameters: { request_id: 'none' } });
		expect(server.csvFor(exportId).split('\n')[0]).toMatch(/^workflow\.execution\.request_id,workflow\.execution\.execution_id,workflow\.execution\.request_time,workflow\.nql_id,/);
		server.options.actionColumnNames = 'short';
		expect(Object.keys((await read('#ra_status', requestId))[0])).toEqual(ACTION_TABLES['remote_action.executions'].header);
	});

	it('a status query can match another column with another parameter name', async () => {
		server.addActionStatusQuery({ id: '#campaign_by_id', table: 'campaign.responses', column: 'campaign.nql_id', parameter: 'campaign' });
		await post('/api/v1/euf/campaign/trigger', { campaignNqlId: '#it_satisfaction', userSid: [ALICE, BOB], expiresInMinutes: 30 });
		const body = await post('/api/v2/nql/execute', { queryId: '#campaign_by_id', parameters: { campaign: '#it_satisfaction' } });
		expect(body.data.map((row: any) => row['user.name'])).toEqual(['Alice Martin', 'Bob Keller']);
	});

	it('remote_action.#<id>.executions: only that remote action’s rows, its outputs as typed columns', async () => {
		server.addActionStatusQuery({ id: '#cpu_status', table: 'remote_action.#kill_runaway_process.executions' });
		const other = await runRemoteAction([COLLECTOR_1]);
		const response = await apiRequest(server, token, 'POST', '/api/v1/act/execute', {
			json: { remoteActionId: '#kill_runaway_process', devices: [COLLECTOR_1], params: { ProcessName: 'chrome.exe', CpuThresholdPercent: '95', Force: 'true' } },
		});
		const { requestId } = await response.json();
		expect(await read('#cpu_status', other.requestId)).toEqual([]);
		const first = await read('#cpu_status', requestId);
		expect(Object.keys(first[0])).toEqual([...ACTION_TABLES['remote_action.executions'].header.slice(0, -1), 'outputs.Stopped', 'outputs.CpuBefore']);
		expect(first[0]).toMatchObject({ status: 'pending', 'outputs.Stopped': '', 'outputs.CpuBefore': '' });
		await read('#cpu_status', requestId);
		expect((await read('#cpu_status', requestId))[0]).toMatchObject({ status: 'success', 'outputs.Stopped': 'Stopped on LAPTOP-ZRH-001', 'outputs.CpuBefore': 'CpuBefore on LAPTOP-ZRH-001' });
	});

	it('campaign.#<id>.responses: only that campaign’s rows', async () => {
		server.addActionStatusQuery({ id: '#pulse_by_campaign', table: 'campaign.#it_satisfaction.responses', column: 'user.sid', parameter: 'sid' });
		await post('/api/v1/euf/campaign/trigger', { campaignNqlId: '#it_satisfaction', userSid: [ALICE], expiresInMinutes: 30 });
		await post('/api/v1/euf/campaign/trigger', { campaignNqlId: '#device_replacement_survey', userSid: [ALICE], expiresInMinutes: 30, parameters: { device_name: 'x', device_age_years: '5' } });
		const body = await post('/api/v2/nql/execute', { queryId: '#pulse_by_campaign', parameters: { sid: ALICE } });
		expect(body.data.map((row: any) => row['campaign.nql_id'])).toEqual(['#it_satisfaction']);
		expect(body.executedQuery).toMatch(/^campaign\.#it_satisfaction\.responses during past 7d \| where user\.sid == "S-1-5-21-/);
	});

	it('refuses a status query over an unknown table or column', () => {
		expect(() => server.addActionStatusQuery({ id: '#bad_object', table: 'remote_action.#nope.executions' })).toThrow(/no remote action #nope/);
		expect(() => server.addActionStatusQuery({ id: '#bad_table', table: 'remote_action.runs' })).toThrow(/table must be one of/);
		expect(() => server.addActionStatusQuery({ id: '#bad_column', table: 'campaign.responses', column: 'execution_id' })).toThrow(/no column execution_id/);
	});

	it('reading the rows from the control API does not count as a poll', async () => {
		const { requestId } = await runRemoteAction([COLLECTOR_1]);
		for (let i = 0; i < 5; i++) server.actions.rows('remote_action.executions', 'request_id', requestId, false);
		expect((await read('#ra_status', requestId))[0].status).toBe('pending');
	});
});

describe('demo estate: action objects and queries', () => {
	let server: any;
	let token: string;

	beforeAll(async () => {
		server = await startNexthinkServer({ demo: true });
		token = await fetchToken(server);
	});

	afterAll(async () => {
		await server.close();
	});

	const execute = async (queryId: string, parameters?: Record<string, string>) => {
		const response = await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId, parameters } });
		expect(response.status).toBe(200);
		return (await response.json()).data;
	};

	it('high CPU devices → remote action → #n8n_remote_action_status reaches success for each', async () => {
		const devices = await execute('#high_cpu_devices');
		expect(devices.length).toBeGreaterThanOrEqual(40);
		for (const device of devices) expect(device.cpu_usage_percent).toBeGreaterThan(85 - 1);
		const collectors = devices.slice(0, 5).map((device: any) => device['device.collector.uid']);
		const response = await apiRequest(server, token, 'POST', '/api/v1/act/execute', {
			json: { remoteActionId: '#kill_runaway_process', devices: collectors, params: { ProcessName: 'chrome.exe', CpuThresholdPercent: '90', Force: 'false' } },
		});
		const { requestId } = await response.json();
		let rows: any[] = [];
		for (let poll = 0; poll < 3; poll++) rows = await execute('#n8n_remote_action_status', { request_id: requestId });
		expect(rows.map((row) => [row['device.collector.uid'], row['device.name'], row.status])).toEqual(
			devices.slice(0, 5).map((device: any) => [device['device.collector.uid'], device['device.name'], 'success']),
		);
	});

	it('users with old devices → campaign → #n8n_campaign_status; a workflow by device name → #n8n_workflow_status', async () => {
		const users = await execute('#old_device_users');
		expect(users.length).toBeGreaterThan(10);
		const response = await apiRequest(server, token, 'POST', '/api/v1/euf/campaign/trigger', {
			json: {
				campaignNqlId: '#device_replacement_survey',
				userSid: [users[0]['user.sid']],
				expiresInMinutes: 10080,
				parameters: { device_name: users[0]['device.name'], device_age_years: String(users[0].device_age_years) },
			},
		});
		const [{ requestId }] = (await response.json()).requests;
		expect(requestId).toBeDefined();
		expect((await execute('#n8n_campaign_status', { request_id: requestId }))[0]).toMatchObject({ 'user.upn': users[0]['user.upn'], state: 'pending' });

		const started = await (
			await apiRequest(server, token, 'POST', '/api/v2/workflows/execute', { json: { workflowId: '#repair_teams', devices: [{ name: users[0]['device.name'] }] } })
		).json();
		expect((await execute('#n8n_workflow_status', { request_id: started.requestUuid }))[0]).toMatchObject({ 'device.name': users[0]['device.name'], status: 'in_progress' });
	});

	it('gives every demo device a Collector UID distinct from its device UID', () => {
		const devices = [...server.inventory.devices.values()];
		expect(devices.filter((device: any) => !/^[0-9a-f-]{36}$/.test(device.collectorUid) || device.collectorUid === device.uid)).toEqual([]);
		expect(new Set(devices.map((device: any) => device.collectorUid)).size).toBe(devices.length);
	});
});

describe('recording server', () => {
	it('answers the action triggers as a working API would, with RECORDED_REQUEST_ID', async () => {
		const recorder = await startRecordingServer();
		try {
			const post = async (path: string, json: unknown) => (await fetch(`${recorder.baseUrl}${path}`, { method: 'POST', body: JSON.stringify(json) })).json();
			expect(await post('/api/v1/act/execute', {})).toEqual({ requestId: RECORDED_REQUEST_ID, expiresInMinutes: 60 });
			expect(await post('/api/v2/workflows/execute', {})).toEqual({ requestUuid: RECORDED_REQUEST_ID, executionsUuids: [RECORDED_REQUEST_ID] });
			expect(await post('/api/v1/workflows/workflows/a/execution/b/trigger', {})).toEqual([{ requestUuid: RECORDED_REQUEST_ID }]);
			expect(await post('/api/v1/euf/campaign/trigger', { userSid: [ALICE] })).toEqual({ requests: [{ userSid: ALICE, requestId: RECORDED_REQUEST_ID }] });
			expect(recorder.requests.map((request: any) => request.url)).toHaveLength(4);
		} finally {
			await recorder.close();
		}
	});
});
