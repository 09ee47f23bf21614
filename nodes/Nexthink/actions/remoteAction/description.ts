/** The Remote Action resource's operation picker and what Run and Get share: the remote action (list or NQL ID). */
import { listOrIdLocator } from '../../shared/resourceLocator';
import { operationPicker } from '../shared/panelFields';

export const show = (operation: string[]) => ({ show: { resource: ['remoteAction'], operation } });

export const remoteActionOperationProperty = operationPicker('remoteAction', 'run', [
	{ name: 'Get', value: 'get', action: 'Get a remote action', description: 'Get the details of a remote action by its NQL ID' },
	{ name: 'Get Many', value: 'getMany', action: 'Get many remote actions', description: 'List the remote actions' },
	{
		name: 'Run',
		value: 'run',
		action: 'Run a remote action',
		description: 'Run a remote action on the devices of the input items',
	},
]);

export const remoteActionLocator = listOrIdLocator(
	{
		displayName: 'Remote Action',
		name: 'remoteAction',
		mode: 'list',
		displayOptions: show(['run', 'get']),
		description: 'The remote action. Only remote actions with the "API" option ticked in Nexthink can be run.',
	},
	'searchRemoteActions',
	{ displayName: 'By NQL ID', placeholder: '#restart_service', hint: 'The NQL ID from Remote actions > Manage remote actions ("Copy NQL ID"); case-sensitive' },
);
