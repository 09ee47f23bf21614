/**
 * Wait for Results in the panel: when it is on, a notice gives the NQL of the status query to create
 * for the resource, the same text the local server accepts as that query (and the README gives,
 * test/server/tests/statusQueryNql.test.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { STATUS_QUERY_NQL } from '../../../nodes/Nexthink/actions/shared/waitForResults';

const server = require('../../server/actions');

const properties = new NexthinkActions().description.properties;

describe('Wait for Results notice', () => {
	it('gives the NQL the local server (and the README) have for each table', () => {
		expect(STATUS_QUERY_NQL).toEqual(server.STATUS_QUERY_NQL);
	});

	it.each([
		['remoteAction', 'run', 'remote_action.executions'],
		['workflow', 'run', 'workflow.executions'],
		['campaign', 'trigger', 'campaign.responses'],
	] as const)('%s %s: shown only while waiting, with the query over %s, before Status Query ID', (resource, operation, table) => {
		const ofOperation = properties.filter((p: INodeProperties) => p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation));
		const notice = ofOperation.find((p) => p.name === 'statusQueryNotice');
		expect(notice?.type).toBe('notice');
		expect(notice?.displayOptions?.show?.waitForResults).toEqual([true]);
		expect(notice?.displayName).toContain(`Create it once in Nexthink (Administration > NQL API queries) with this NQL and enter its ID in Status Query ID: ${STATUS_QUERY_NQL[table]}`);
		const names = ofOperation.map((p) => p.name);
		expect(names.indexOf('statusQueryNotice')).toBe(names.indexOf('statusQueryId') - 1);
	});
});
