/**
 * Shared set-up for the Enrichment node's integration tests: a local Nexthink server, the node run
 * through n8n-core's engine, and readers for what reached the server.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NexthinkEnrichment } from '../../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { nexthinkCredentials, runNode, type RunNodeOptions, type RunNodeResult } from '../../helpers/harness';

const { startNexthinkServer } = require('../../server');

export const ENRICHMENT_PATH = '/api/v1/enrichment/data/fields';

export type TestServer = Awaited<ReturnType<typeof startNexthinkServer>>;

export async function startServer(options: object = {}): Promise<TestServer> {
	return await startNexthinkServer(options);
}

export interface EnrichmentRequest {
	domain: string;
	enrichments: Array<{ identification: Array<{ name: string; value: string }>; fields: Array<{ name: string; value: unknown }> }>;
}

/** The enrichment requests the server received, in order, with their JSON bodies. */
export function enrichmentRequests(server: TestServer): EnrichmentRequest[] {
	return server.requests
		.filter((request: { method: string; path: string }) => request.method === 'POST' && request.path === ENRICHMENT_PATH)
		.map((request: { body: string }) => JSON.parse(request.body) as EnrichmentRequest);
}

export interface EnrichOptions {
	items: IDataObject[];
	onError?: RunNodeOptions['onError'];
	credentials?: RunNodeOptions['credentials'];
}

export async function enrich(server: TestServer, parameters: INodeParameters, options: EnrichOptions): Promise<RunNodeResult> {
	return await runNode({
		nodeType: new NexthinkEnrichment(),
		parameters: { domain: 'n8n', options: {}, ...parameters },
		items: options.items.map((json) => ({ json })),
		credentials: options.credentials ?? { nexthinkApi: nexthinkCredentials(server) },
		onError: options.onError,
	});
}

/** Parameters for "Map Each Field" on devices identified by name from `$json.name`. */
export function deviceFields(fieldValues: IDataObject[], extra: INodeParameters = {}): INodeParameters {
	return {
		objectType: 'device',
		identifyBy: 'name',
		identificationValue: '={{ $json.name }}',
		mappingMode: 'defineBelow',
		deviceFields: { fieldValues } as INodeParameters,
		...extra,
	};
}

/** A "Map Each Field" entry setting custom field `#tier` from `$json.tier`. */
export const TIER_FROM_INPUT: IDataObject = { field: 'customField', customFieldId: '#tier', value: '={{ $json.tier }}' };

export function outcomeOf(item: INodeExecutionData): IDataObject {
	return item.json.enrichment as IDataObject;
}

export function pairedIndex(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired !== null ? paired.item : Number(paired);
}
