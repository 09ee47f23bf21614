import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * What a Nexthink connector credential sends when Nexthink calls n8n
 * (https://docs.nexthink.com/platform/integrations/outbound-connectors/connector-credentials):
 * Basic user and password, or a Bearer token. The Nexthink Event Trigger compares the calls it
 * receives with these values; it never sends them anywhere.
 */
export class NexthinkConnectorApi implements ICredentialType {
	name = 'nexthinkConnectorApi';

	displayName = 'Nexthink Outbound Connector API';

	icon: Icon = { light: 'file:../nodes/Nexthink/icons/nexthink.svg', dark: 'file:../nodes/Nexthink/icons/nexthink.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-nexthink/n8n-nodes-nexthink/blob/main/docs/event-trigger.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Authorization Type',
			name: 'authType',
			type: 'options',
			options: [
				{ name: 'Basic', value: 'basic', description: 'A user name and a password' },
				{ name: 'Bearer Token', value: 'bearer', description: 'A token sent as Authorization: Bearer' },
			],
			default: 'bearer',
			description: 'The authorization type of the connector credential in Nexthink',
		},
		{
			displayName: 'User Name',
			name: 'user',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { authType: ['basic'] } },
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authType: ['basic'] } },
		},
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'A long random value; type the same one into the Nexthink connector credential',
			displayOptions: { show: { authType: ['bearer'] } },
		},
	];
}
