/** Spark → Hand Off Conversation: one handoff per item. Why: docs/decisions.md, "Actions node: Device → Delete and Spark → Hand Off Conversation". */
import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestError } from '../shared/runPlan';
import type { BatchedOperation } from '../../shared/runItems';
import { toolWritesOff } from '../../shared/toolMode';
import { handOffConversation, type HandOffPart, type HandOffRequest } from './api';
import { checkBinaryProperty, checkMessage, checkMetadata, checkTimeZone, checkUpn, parseBinaryPropertyNames } from './handOffInput';
import { readTimeoutMs, writeOptions } from '../shared/panelFields';
import { notice, pairsCollection } from '../../shared/optionFields';
import { show } from './description';

export const description = updateDisplayOptions(show, [
	notice(
		'handOffNotice',
		'Spark continues the conversation with the user in Microsoft Teams; nothing comes back to n8n. Spark must be set up for the user (Teams app, Entra ID connector, UPN collection).',
	),
	{
		displayName: 'User Principal Name',
		name: 'userPrincipalName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'jane.doe@contoso.com',
		description: 'The UPN of the user to hand over (their Microsoft 365 sign-in name)',
	},
	{
		displayName: 'Message',
		name: 'handOffMessage',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: "The user's request for Spark, e.g. their last message or a summary of the conversation so far",
	},
	{
		displayName: 'Files',
		name: 'handOffFiles',
		type: 'string',
		default: '',
		placeholder: 'data, screenshot',
		description: 'Binary properties of the item to send as files (e.g. a screenshot or a log), separated by commas; each goes with its MIME type',
	},
	pairsCollection(
		{ displayName: 'Metadata', name: 'handOffMetadata', placeholder: 'Add Metadata', description: 'Key/value pairs Spark passes through with the request, e.g. the ticket number' },
		{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'ticket' },
		{ displayName: 'Entry', name: 'entry' },
	),
	{
		displayName: 'Time Zone',
		name: 'handOffTimeZone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Zurich',
		description: "The user's time zone as an IANA name (e.g. Europe/Zurich), sent to Spark; empty sends none",
	},
	writeOptions(show, 'hand the conversation off to Spark', 'Longest time the request may take. A handoff that times out is not sent again (Spark may have received it).'),
]);

const HANDED_OFF = 'Spark has the conversation: it continues with the user in Microsoft Teams. Nothing comes back to n8n.';

/** One item's handoff, checked (`validateOnly`: as a tool without writes allowed, checked and not sent). */
function prepareHandOff(this: IExecuteFunctions, itemIndex: number) {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const request: HandOffRequest = {
		upn: checkUpn(this.getNodeParameter('userPrincipalName', itemIndex, '')),
		parts: [{ type: 'TEXT', text: checkMessage(this.getNodeParameter('handOffMessage', itemIndex, '')) }],
	};
	const timeZone = checkTimeZone(this.getNodeParameter('handOffTimeZone', itemIndex, ''));
	if (timeZone !== undefined) request.timeZone = timeZone;
	const metadata = checkMetadata(this.getNodeParameter('handOffMetadata.entry', itemIndex, []) as Array<{ key?: unknown; value?: unknown }>);
	if (metadata !== undefined) request.metadata = metadata;
	const binaries: Record<string, IBinaryData> = this.getInputData()[itemIndex].binary ?? {};
	const files = parseBinaryPropertyNames(this.getNodeParameter('handOffFiles', itemIndex, '')).map((property) => ({
		property,
		mimeType: checkBinaryProperty(property, binaries[property], Object.keys(binaries)),
	}));
	return { request, files, timeoutMs: readTimeoutMs(options), validateOnly: toolWritesOff(this, options) };
}

type Prepared = ReturnType<typeof prepareHandOff>;

type Handoff = { itemIndexes: [number] };

export const handOffOperation: BatchedOperation<undefined, Prepared, Handoff, { statusCode: number }, { requests: Handoff[] }, IDataObject> = {
	outcomeKey: 'nexthinkSpark',
	done: 'handed off',
	prepare: prepareHandOff,
	validateOnly: (prepared) => prepared.validateOnly,
	plan: (itemIndexes) => ({ requests: itemIndexes.map((itemIndex) => ({ itemIndexes: [itemIndex] as [number] })) }),
	async send({ itemIndexes: [itemIndex] }, { items }) {
		const { request, files, timeoutMs } = items.get(itemIndex) as Prepared;
		const parts: HandOffPart[] = [...request.parts];
		for (const file of files) {
			const content = await this.helpers.getBinaryDataBuffer(itemIndex, file.property);
			parts.push({ type: 'FILE', mimeType: file.mimeType, fileContent: content.toString('base64') });
		}
		return { statusCode: await handOffConversation(this, { ...request, parts }, { timeoutMs, itemIndex }) };
	},
	// no refusedObject: after a 401 or 403 no later handoff could succeed
	outcomes(plan, results, { items }) {
		return new Map(
			plan.requests.map(({ itemIndexes: [itemIndex] }, index) => {
				const { request, files } = items.get(itemIndex) as Prepared;
				const outcome: IDataObject = { upn: request.upn, files: files.length };
				if (request.timeZone !== undefined) outcome.timeZone = request.timeZone;
				const result = results?.[index];
				if (result === undefined) return [itemIndex, { status: 'validated', ...outcome }];
				if (!result.ok) return [itemIndex, { ...outcome, status: 'failed', error: requestError(result) }];
				return [itemIndex, { status: 'handedOff', ...outcome, statusCode: result.statusCode, message: HANDED_OFF }];
			}),
		);
	},
};
