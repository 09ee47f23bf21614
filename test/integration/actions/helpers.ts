/**
 * What the Actions node's integration tests share: the node run on JSON items against the local
 * server, the values n8n's editor saves for a list locator and a resource mapper, and the input
 * item an output item is paired with.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { nexthinkCredentials, runNode, type RunNodeOptions, type RunNodeResult } from '../../helpers/harness';

/** Runs the Actions node on one item per JSON object, with credentials for `server`. */
export async function runActions(server: any, parameters: INodeParameters, items: IDataObject[], options: Partial<RunNodeOptions> = {}): Promise<RunNodeResult> {
	return await runNode({
		nodeType: new NexthinkActions(),
		parameters,
		items: items.map((json) => ({ json })),
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...options,
	});
}

/** The credential's seven permissions, as the local server names them. */
export const ALL_PERMISSIONS = ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns', 'dataManagement', 'spark'];

/**
 * A local server whose first client (`nx-client`, secret `clientSecret`) has every permission and whose
 * second (`no-<permission>`, secret `no-<permission>-secret`) lacks `permission`.
 */
export async function serverWithClientLacking(permission: string, clientSecret: string): Promise<any> {
	const { startNexthinkServer } = require('../../server');
	return await startNexthinkServer({
		clients: [
			{ clientId: 'nx-client', clientSecret, permissions: ALL_PERMISSIONS },
			{ clientId: `no-${permission}`, clientSecret: `no-${permission}-secret`, permissions: ALL_PERMISSIONS.filter((other) => other !== permission) },
		],
	});
}

/** What the editor saves for a resource locator set "From List". */
export const locator = (value: string) => ({ __rl: true, mode: 'list', value });

/** What the editor saves for a resource mapper in "define below" mode. */
export const mapperValue = (value: IDataObject) =>
	({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString: true }) as INodeParameters;

/** The input item an output item is paired with. */
export const paired = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

/** An execution of the default catalog's #disk_cleanup_with_approval waiting for its event, on device `collectorUid`. */
export async function waitingExecution(server: any, collectorUid: string): Promise<string> {
	const started = await runActions(
		server,
		{ resource: 'workflow', operation: 'run', workflow: locator('#disk_cleanup_with_approval'), workflowApiVersion: 'v2', workflowDevices: collectorUid, workflowDeviceIdType: 'collectorUid', workflowUsers: '', workflowUserIdType: 'sid', options: {} },
		[{}],
	);
	return (started.items[0].json.nexthinkWorkflow as { executionIds: string[] }).executionIds[0];
}
