/**
 * The Enrichment API's call for one batch (answer: batchAnswer.ts). Setting the same values twice
 * changes nothing, so it may be retried; 207 and 400 name the objects that failed, not errors.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { plural } from '../shared/wording';
import { nexthinkRequest } from '../transport';
import { interpretResponse, type ObjectResult } from './batchAnswer';
import { requestBody, type Batch } from './batching';

const ENRICHMENT_PATH = '/api/v1/enrichment/data/fields';

/** Where to check what an enrichment request whose answer proves nothing may have written. */
const MAY_HAVE_WRITTEN =
	'Nexthink may have written some or all of its values: read the fields back with NQL (e.g. devices | where name == … | list …) before relying on them or sending them again.';

export async function enrichBatch(
	ctx: IExecuteFunctions,
	batch: Batch,
	settings: { objectType: string; domain: string; timeoutMs: number },
): Promise<ObjectResult[]> {
	const response = await nexthinkRequest(ctx, {
		method: 'POST',
		path: ENRICHMENT_PATH,
		body: requestBody(batch, settings.domain),
		idempotent: true,
		mayHaveRunNote: MAY_HAVE_WRITTEN,
		acceptStatus: [207, 400],
		timeoutMs: settings.timeoutMs,
		action: `Enriching ${plural(batch.objects.length, `${settings.objectType} object`)}`,
	});
	return interpretResponse(batch, response.statusCode, response.body, { headers: response.headers, host: response.host });
}
