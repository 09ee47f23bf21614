/**
 * Parameters of the Device resource: Delete (the Data Management API). One device per input item,
 * given by UID and name as an export of devices has them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_DELETION_REQUEST_TIMEOUT_SECONDS } from './api';
import { DEFAULT_MAX_DEVICES_PER_RUN, MAX_DEVICES_PER_DELETION } from './deleteInput';
import { actionWritesDescription, allowWritesOption, requestTimeoutOption } from '../../shared/optionFields';

const show = { show: { resource: ['device'], operation: ['delete'] } };

export const deviceOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['device'] } },
	options: [
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete devices',
			description: 'Remove the devices of the input items from the Nexthink inventory (queued by Nexthink, no undo)',
		},
	],
	default: 'delete',
};

export const deviceProperties: INodeProperties[] = [
	{
		displayName:
			'Deletes the devices from the Nexthink inventory. Nexthink only queues each deletion (202) and offers no status to poll: check later in NQL that the devices are gone. Uninstall the Collector first, or the device may come back when it reports again. Try Preview first.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'Device UID',
		name: 'deviceUid',
		type: 'string',
		default: '={{ $json["device.uid"] }}',
		required: true,
		displayOptions: show,
		description: 'The UID of this item\'s device (device.uid, a UUID), as an export of devices gives it',
	},
	{
		displayName: 'Device Name',
		name: 'deviceName',
		type: 'string',
		default: '={{ $json["device.name"] }}',
		required: true,
		displayOptions: show,
		description: 'The name of this item\'s device (device.name); Nexthink needs it with the UID',
	},
	{
		displayName: 'Maximum Devices per Run',
		name: 'maxDevicesPerRun',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_DEVICES_PER_RUN,
		required: true,
		displayOptions: show,
		description: 'The node fails before sending anything when the input holds more devices than this, so that a workflow gone wrong cannot delete a whole estate',
	},
	{
		displayName: 'Preview',
		name: 'preview',
		type: 'boolean',
		default: false,
		displayOptions: show,
		description: 'Whether to only check the input and return the requests that would be sent, batch by batch, without sending anything',
	},
	{
		displayName: 'Options',
		name: 'deviceOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: [
			allowWritesOption(actionWritesDescription('delete devices')),
			{
				displayName: 'Devices per Request',
				name: 'devicesPerRequest',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_DEVICES_PER_DELETION },
				default: MAX_DEVICES_PER_DELETION,
				description: 'Devices in one deletion request: at most 100, the API\'s limit; lower it when Nexthink answers BATCH_SIZE_EXCEEDED (the limit is configurable per tenant)',
			},
			{
				displayName: 'Let Nexthink Judge Malformed UIDs',
				name: 'letNexthinkJudgeUids',
				type: 'boolean',
				default: false,
				description:
					'Whether to send a UID that is not a UUID anyway, for Nexthink to answer INVALID for that device. Off: such an item is refused before any request. A blank UID or name is always refused.',
			},
			requestTimeoutOption(DEFAULT_DELETION_REQUEST_TIMEOUT_SECONDS, 'Longest time one deletion request may take. A request that times out is not sent again (it may have queued the deletions).'),
		],
	},
];
