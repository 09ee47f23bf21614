/** Start Export: start only, output the export ID (for Wait-node loops over very long exports). */
import { updateDisplayOptions } from 'n8n-workflow';

import { startExport } from '../../nql/exportApi';
import { readQuerySettings, readStartSettings, readTimeoutMs } from '../settings';
import { itemOperation } from '../../shared/runItems';
import { OPTIONS_COLLECTION } from '../../shared/optionFields';
import { ADVANCED_OPTIONS_COLLECTION, compressionField, exportQueryFields, OPTION } from '../description';

export const description = updateDisplayOptions({ show: { '/operation': ['startExport'] } }, [
	...exportQueryFields,
	compressionField,
	{ ...OPTIONS_COLLECTION, options: [OPTION.logTag, OPTION.requestTimeoutSeconds] },
	{ ...ADVANCED_OPTIONS_COLLECTION, options: [OPTION.startMethod] },
]);

export const executeStartExport = itemOperation({
	prepare(itemIndex) {
		return { query: readQuerySettings(this, itemIndex), start: readStartSettings(this, itemIndex), timeoutMs: readTimeoutMs(this, itemIndex) };
	},
	async run(itemIndex, { query, start, timeoutMs }) {
		const exportId = await startExport(this, { ...query, ...start, timeoutMs, itemIndex });
		return [{ json: { exportId, queryId: query.queryId, compression: start.compression }, pairedItem: { item: itemIndex } }];
	},
});
