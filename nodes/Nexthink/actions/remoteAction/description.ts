/** The Remote Action resource's operation picker and what Run and Get share: the remote action (list or NQL ID). */
import { nqlIdLocator, operationPicker } from '../shared/panelFields';

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

export const remoteActionLocator = nqlIdLocator('remoteAction', 'Remote Action', 'searchRemoteActions', {
	description: 'The remote action. Only remote actions with the "API" option ticked in Nexthink can be run.',
	placeholder: '#restart_service',
	hint: 'The NQL ID from Remote actions > Manage remote actions ("Copy NQL ID"); case-sensitive',
});
