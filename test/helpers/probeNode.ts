/**
 * A test-only node that sends one request per input item through the package's transport, so the
 * credential and transport are tested through n8n-core's engine before (and apart from) the real
 * nodes. Never shipped: it lives in test/.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { nexthinkRequest } from '../../nodes/Nexthink/transport';

export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Sends one request per item through the Nexthink transport',
		defaults: { name: 'Transport Probe' },
		inputs: ['main'] as never,
		outputs: ['main'] as never,
		credentials: [{ name: 'nexthinkApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/api/v1/nql/status/x' },
			{ displayName: 'Idempotent', name: 'idempotent', type: 'boolean', default: true },
			{ displayName: 'Accept Status', name: 'acceptStatus', type: 'string', default: '' },
			{ displayName: 'Deadline In Ms', name: 'deadlineInMs', type: 'number', default: 0 },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Repeat', name: 'repeat', type: 'number', default: 1 },
			{ displayName: 'Headers', name: 'headers', type: 'json', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const acceptStatus = String(this.getNodeParameter('acceptStatus', i))
				.split(',')
				.filter((s) => s.trim() !== '')
				.map(Number);
			const deadlineInMs = this.getNodeParameter('deadlineInMs', i) as number;
			const body = this.getNodeParameter('body', i) as string;
			const repeat = this.getNodeParameter('repeat', i) as number;
			const headers = this.getNodeParameter('headers', i, '') as string | Record<string, string>;
			for (let r = 0; r < repeat; r++) {
				const response = await nexthinkRequest(this, {
					method: this.getNodeParameter('method', i) as 'GET' | 'POST',
					path: this.getNodeParameter('path', i) as string,
					idempotent: this.getNodeParameter('idempotent', i) as boolean,
					acceptStatus,
					deadline: deadlineInMs > 0 ? Date.now() + deadlineInMs : undefined,
					body: body === '' ? undefined : typeof body === 'string' ? JSON.parse(body) : body,
					headers: headers === '' ? undefined : typeof headers === 'string' ? (JSON.parse(headers) as Record<string, string>) : headers,
					itemIndex: i,
					action: 'Probing',
					retryPolicy: { baseDelayMs: 50, maxDelayMs: 400 },
				});
				out.push({ json: { statusCode: response.statusCode, headers: response.headers, body: response.body as never }, pairedItem: { item: i } });
			}
		}
		return [out];
	}
}
