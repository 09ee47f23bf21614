/**
 * The Export and Actions nodes' values keep when the user switches between operations that share them: n8n's
 * editor's parameter update (test/helpers/editorChange.ts) applied to the node's real description,
 * with the n8n-workflow of each generation. A control run with the display conditions written the
 * usual way (`operation` instead of `/operation`) shows the values the editor dropped before
 * (operationProperty in export/description.ts). The Actions node's operations each show one `options`
 * collection under their own resource and operation: the values they share keep as they are.
 */
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { editorChange } from '../helpers/editorChange';
import { N8N_WORKFLOW_VERSION } from '../helpers/harness';

/** The description with root-path conditions written as plain names, as before. */
function withPlainConditions(description: INodeTypeDescription): INodeTypeDescription {
	const plain = (property: INodeProperties): INodeProperties => {
		const show = property.displayOptions?.show;
		if (show === undefined) return property;
		const renamed = Object.fromEntries(Object.entries(show).map(([name, values]) => [name === '/operation' ? 'operation' : name, values]));
		return { ...property, displayOptions: { ...property.displayOptions, show: renamed } };
	};
	return { ...description, properties: description.properties.map(plain) };
}

const exportNode = new NexthinkExport().description;

const QUERY_PARAMETERS = { parameter: [{ name: 'os', value: 'Windows 11' }] };

/** An Export node as the user left it: query parameters, everyday options and an advanced one. */
const EXPORT_PARAMETERS: INodeParameters = {
	operation: 'export',
	queryId: '#devices_by_os',
	queryParameters: QUERY_PARAMETERS,
	options: { maxRows: 5, requestTimeoutSeconds: 120, output: 'file', maxWaitSeconds: 600 },
	advancedOptions: { maxFieldMB: 1 },
};

describe(`Switching operations in the editor (n8n-workflow ${N8N_WORKFLOW_VERSION})`, () => {
	describe('Nexthink Export', () => {
		it('Export → Download Results keeps the options both have (output, limits, timeout) and drops Export\'s own', () => {
			const after = editorChange(exportNode, 1, EXPORT_PARAMETERS, 'operation', 'downloadResults');
			expect(after.operation).toBe('downloadResults');
			expect(after.options).toEqual({ maxRows: 5, requestTimeoutSeconds: 120, output: 'file' });
			expect(after.advancedOptions).toMatchObject({ maxFieldMB: 1 });
			expect(after.queryParameters).toBeUndefined(); // Download Results has no query
		});

		it('Export → Start Export keeps the query, its parameters and Request Timeout', () => {
			const after = editorChange(exportNode, 1, EXPORT_PARAMETERS, 'operation', 'startExport');
			expect(after).toMatchObject({ operation: 'startExport', queryId: '#devices_by_os', queryParameters: QUERY_PARAMETERS });
			expect(after.options).toEqual({ requestTimeoutSeconds: 120 });
		});

		it('Export → Execute Query keeps the query, its parameters and Request Timeout', () => {
			const after = editorChange(exportNode, 1, EXPORT_PARAMETERS, 'operation', 'executeQuery');
			expect(after).toMatchObject({ operation: 'executeQuery', queryId: '#devices_by_os', queryParameters: QUERY_PARAMETERS });
			expect(after.options).toEqual({ requestTimeoutSeconds: 120 });
		});

		it('control: with the conditions on `operation`, the editor empties the options', () => {
			const plain = withPlainConditions(exportNode);
			const toDownload = editorChange(plain, 1, EXPORT_PARAMETERS, 'operation', 'downloadResults');
			expect(toDownload.options).toEqual({});
			expect(toDownload.advancedOptions).toEqual({});
			const toStart = editorChange(plain, 1, EXPORT_PARAMETERS, 'operation', 'startExport');
			expect(toStart.options).toEqual({});
		});

		it('Download Results → Export keeps the shared options and an Export-only one set before stays dropped', () => {
			const download = editorChange(exportNode, 1, EXPORT_PARAMETERS, 'operation', 'downloadResults');
			const back = editorChange(exportNode, 1, download, 'operation', 'export');
			expect(back.options).toEqual({ requestTimeoutSeconds: 120, output: 'file', maxRows: 5 });
			expect(back.advancedOptions).toMatchObject({ maxFieldMB: 1 });
		});
	});

	describe('Nexthink Actions', () => {
		const actionsNode = new NexthinkActions().description;
		const runRemoteAction: INodeParameters = {
			resource: 'remoteAction',
			operation: 'run',
			remoteAction: { __rl: true, mode: 'id', value: '#restart_service' },
			collectorUids: '={{ $json.uid }}',
			waitForResults: true,
			statusQueryId: '#n8n_remote_action_status',
			options: { requestTimeoutSeconds: 90, reason: 'High CPU', maxWaitSeconds: 600, allowWritesAsTool: true },
		};

		it('Run Remote Action → Get keeps Request Timeout and drops what only Run has', () => {
			const after = editorChange(actionsNode, 1, runRemoteAction, 'operation', 'get');
			expect(after.options).toEqual({ requestTimeoutSeconds: 90 });
		});

		it('Run Remote Action → Campaign keeps the options Trigger also has (the wait settings, timeout, writes as a tool)', () => {
			const after = editorChange(actionsNode, 1, runRemoteAction, 'resource', 'campaign');
			expect(after.options).toEqual({ requestTimeoutSeconds: 90, maxWaitSeconds: 600, allowWritesAsTool: true });
		});

	});
});
