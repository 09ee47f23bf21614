/**
 * The credential form as n8n shows it (its display conditions, evaluated by n8n-workflow): Instance
 * Name and Region first, the custom URLs only once asked for. The property names are the saved ones.
 */
import { NodeHelpers, type INodeProperties } from 'n8n-workflow';

import { NexthinkApi } from '../../../credentials/NexthinkApi.credentials';

const properties = new NexthinkApi().properties;

function shown(values: Record<string, unknown>): string[] {
	return properties
		.filter((p: INodeProperties) => p.type !== 'hidden' && NodeHelpers.displayParameter(values as never, p, null, null))
		.map((p) => p.name);
}

describe('Nexthink API credential form', () => {
	it('shows Instance Name and Region first, the client, then the exceptions', () => {
		expect(shown({ useCustomUrls: false })).toEqual(['instance', 'region', 'clientId', 'clientSecret', 'useCustomUrls', 'ignoreSslIssues']);
	});

	it('with Use Custom URLs on, the two URLs replace Instance Name and Region', () => {
		expect(shown({ useCustomUrls: true })).toEqual(['clientId', 'clientSecret', 'useCustomUrls', 'apiBaseUrl', 'tokenUrl', 'ignoreSslIssues']);
	});
});
