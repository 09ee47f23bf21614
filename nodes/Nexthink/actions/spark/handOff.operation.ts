/**
 * Spark → Hand Off Conversation: one handoff per input item, each item's output under `nexthinkSpark`
 * paired with it. Every item is checked before the first request (UPN, message, files, metadata,
 * time zone); under "Stop Workflow" one bad item means nothing is sent, and a failed handoff stops
 * the node saying which items were already handed off. With "Continue" each item comes out with its
 * outcome (`handedOff` or `failed`); under "Continue (using error output)" the failed ones go there.
 * After a 401 or 403 the later items are not sent (no later request could succeed).
 *
 * As an AI agent's tool it sends nothing unless "Allow Writes When Used as a Tool" is on, like every
 * other write: handing a person's conversation over writes to them in Microsoft Teams. Each item then
 * comes out `validated`, with the note that nothing was sent (shared/runItems.ts, outcomeItems).
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf } from '../../transport';
import { requestTimeoutMs } from '../../shared/requestTimeout';
import { invalidItems, notSentAfterRefusal, outcomeItems, prepareItems, stopIfAnyInvalid } from '../../shared/runItems';
import { failureOf } from '../../shared/nodeErrors';
import { toolWritesOff } from '../../shared/toolMode';
import { DEFAULT_HANDOFF_REQUEST_TIMEOUT_SECONDS, handOffConversation, type HandOffPart, type HandOffRequest } from './api';
import { checkBinaryProperty, checkMessage, checkMetadata, checkTimeZone, checkUpn, parseBinaryPropertyNames } from './handOffInput';

export const SPARK_OUTCOME_KEY = 'nexthinkSpark';

const HANDED_OFF = 'Spark has the conversation: it continues with the user in Microsoft Teams. Nothing comes back to n8n.';

interface Prepared {
	request: HandOffRequest;
	files: Array<{ property: string; mimeType: string }>;
	timeoutMs: number;
	/** As a tool without "Allow Writes When Used as a Tool": checked, not sent. */
	validateOnly: boolean;
}

export async function executeHandOff(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const preparations = prepareItems(this, (itemIndex) => prepareItem(this, items[itemIndex], itemIndex));
	if (!continueOnFail) stopIfAnyInvalid(this, invalidItems(preparations));

	const outcomes = new Map<number, IDataObject>();
	const handedOff: number[] = [];
	let refusal: NodeApiError | undefined;
	for (const [itemIndex, preparation] of preparations.entries()) {
		if (!preparation.ok) continue;
		const { request, files, timeoutMs, validateOnly } = preparation.prepared;
		const outcome: IDataObject = { upn: request.upn, files: files.length };
		if (request.timeZone !== undefined) outcome.timeZone = request.timeZone;
		if (validateOnly) {
			outcomes.set(itemIndex, { status: 'validated', ...outcome });
			continue;
		}
		if (refusal !== undefined) {
			outcomes.set(itemIndex, { ...outcome, status: 'failed', error: { ...failureOf(refusal, notSentAfterRefusal('handoff')), httpCode: refusal.httpCode } });
			continue;
		}
		try {
			const parts: HandOffPart[] = [...request.parts];
			for (const file of files) {
				const content = await this.helpers.getBinaryDataBuffer(itemIndex, file.property);
				parts.push({ type: 'FILE', mimeType: file.mimeType, fileContent: content.toString('base64') });
			}
			const statusCode = await handOffConversation(this, { ...request, parts }, { timeoutMs, itemIndex });
			outcomes.set(itemIndex, { status: 'handedOff', ...outcome, statusCode, message: HANDED_OFF });
			handedOff.push(itemIndex);
		} catch (error) {
			if (cancelSignalOf(this)?.aborted === true) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
			if (!continueOnFail) throw withHandOffsMade(this, error, itemIndex, handedOff);
			const httpCode = error instanceof NodeApiError ? (error.httpCode ?? undefined) : undefined;
			if (error instanceof NodeApiError && (httpCode === '401' || httpCode === '403')) refusal = error;
			outcomes.set(itemIndex, { ...outcome, status: 'failed', error: { ...failureOf(error), ...(httpCode !== undefined ? { httpCode } : {}) } });
		}
	}
	return [outcomeItems(this, preparations, outcomes, SPARK_OUTCOME_KEY)];
}

function prepareItem(ctx: IExecuteFunctions, item: INodeExecutionData, itemIndex: number): Prepared {
	const options = ctx.getNodeParameter('handOffOptions', itemIndex, {}) as IDataObject;
	const request: HandOffRequest = {
		upn: checkUpn(ctx.getNodeParameter('userPrincipalName', itemIndex, '')),
		parts: [{ type: 'TEXT', text: checkMessage(ctx.getNodeParameter('handOffMessage', itemIndex, '')) }],
	};
	const timeZone = checkTimeZone(ctx.getNodeParameter('handOffTimeZone', itemIndex, ''));
	if (timeZone !== undefined) request.timeZone = timeZone;
	const metadata = checkMetadata(ctx.getNodeParameter('handOffMetadata.entry', itemIndex, []) as Array<{ key?: unknown; value?: unknown }>);
	if (metadata !== undefined) request.metadata = metadata;
	const binaries: Record<string, IBinaryData> = item.binary ?? {};
	const files = parseBinaryPropertyNames(ctx.getNodeParameter('handOffFiles', itemIndex, '')).map((property) => ({
		property,
		mimeType: checkBinaryProperty(property, binaries[property], Object.keys(binaries)),
	}));
	return { request, files, timeoutMs: requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_HANDOFF_REQUEST_TIMEOUT_SECONDS), validateOnly: toolWritesOff(ctx, options) };
}

/** Under "Stop Workflow": the failed handoff's error, saying which items were already handed off. */
function withHandOffsMade(ctx: IExecuteFunctions, error: unknown, itemIndex: number, handedOff: readonly number[]): NodeApiError | NodeOperationError {
	const nodeError = error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	if (handedOff.length > 0) {
		const items = `${handedOff.slice(0, 10).join(', ')}${handedOff.length > 10 ? ', …' : ''}`;
		const sentence = `Item${handedOff.length === 1 ? '' : 's'} ${items} of this run ${handedOff.length === 1 ? 'was' : 'were'} handed off to Spark: running all items again hands ${handedOff.length === 1 ? 'it' : 'them'} off again. Set "On Error" to continue to get each item's outcome.`;
		nodeError.description = [nodeError.description, sentence].filter((part) => typeof part === 'string' && part !== '').join(' ');
	}
	return nodeError;
}
