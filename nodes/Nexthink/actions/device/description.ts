/** The Device resource's operation picker (the Data Management API). */
import { operationPicker } from '../shared/panelFields';

export const show = { show: { resource: ['device'], operation: ['delete'] } };

export const deviceOperationProperty = operationPicker('device', 'delete', [
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete devices',
		description: 'Remove the devices of the input items from the Nexthink inventory (queued by Nexthink, no undo)',
	},
]);
