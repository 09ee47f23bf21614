/** The Workflow resource's operation picker and what its operations share: the workflow (Run, Get), parameters by name (Run, Resume). */
import type { INodeProperties } from 'n8n-workflow';

import { nqlIdLocator, operationPicker } from '../shared/panelFields';
import { pairsCollection } from '../../shared/optionFields';

export const show = (operation: string[]) => ({ show: { resource: ['workflow'], operation } });

export const workflowOperationProperty = operationPicker('workflow', 'run', [
	{ name: 'Get', value: 'get', action: 'Get a workflow', description: 'Get a workflow by its NQL ID' },
	{ name: 'Get Many', value: 'getMany', action: 'Get many workflows', description: 'List the workflows (by default every one that can be triggered through the API)' },
	{ name: 'Resume', value: 'resume', action: 'Resume a workflow execution', description: 'Send the event a workflow execution waits for ("wait for event" step)' },
	{ name: 'Run', value: 'run', action: 'Run a workflow', description: 'Run a workflow on the devices or users of the input items' },
]);

/** Parameters by name (Run's Other Parameters, Resume's Event Parameters), inside the operation's `updateDisplayOptions`. */
export const nameValueCollection = (name: string, displayName: string, description: string): INodeProperties =>
	pairsCollection(
		{ displayName, name, placeholder: 'Add Parameter', description },
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
	);

export const workflowLocator = nqlIdLocator('workflow', 'Workflow', 'searchWorkflows', {
	description: 'The workflow. Only workflows with the "API" trigger ticked in Nexthink can be run; the list shows those.',
	placeholder: '#repair_teams',
	hint: 'The NQL ID from Workflows > Manage workflows ("Copy NQL ID"); case-sensitive',
});
