/**
 * Execute Query: runs a stored query synchronously (nql/executeApi.ts) and outputs its rows. Nexthink
 * returns about 1,000 rows at most and drops the rest silently: reaching that is "may be incomplete".
 */
import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { EXECUTE_ROW_LIMIT, executionDateTimeWithZone } from '../../nql/executeAnswer';
import { executeStoredQuery } from '../../nql/executeApi';
import { resultItems } from '../resultItems';
import { readExecuteSettings, readQuerySettings } from '../settings';
import { itemOperation } from '../../shared/runItems';
import { ADVANCED_OPTIONS_COLLECTION, exportQueryFields, megabyteLimit, metadataOption, OPTION } from '../description';
import { OPTIONS_COLLECTION, requestTimeoutOption } from '../../shared/optionFields';

// Advanced Options cannot show an option by a value of the `options` collection, so there
// these two are always shown and say that they apply to CSV answers only.
const CSV_ANSWERS_ONLY = ' Applies to CSV answers only (Response Format: CSV).';

export const description = updateDisplayOptions({ show: { '/operation': ['executeQuery'] } }, [
	{
		displayName:
			'Execute Query returns about 1,000 rows at most and silently drops the rest. For larger results use the Export operation.',
		name: 'executeLimitNotice',
		type: 'notice',
		default: '',
	},
	...exportQueryFields,
	{
		...OPTIONS_COLLECTION,
		options: [
			{
				displayName: 'API Version',
				name: 'apiVersion',
				type: 'options',
				default: 'v2',
				options: [
					{ name: 'V2 (Rows as Objects)', value: 'v2' },
					{ name: 'V1 (Headers and Value Lists)', value: 'v1' },
				],
				description: 'Which execute endpoint to call. Both give the same items; v1 is for older proxies.',
			},
			{
				...OPTION.convertTypes,
				description: 'Whether to convert CSV values (numbers, true/false, empty → null). JSON answers keep the types Nexthink sends.',
				displayOptions: { show: { responseFormat: ['csv'] } },
			},
			OPTION.fieldsAsTool,
			metadataOption('Query', 'nexthinkQuery', 'Whether to output the executed query, row count, execution time and whether the result may be incomplete'),
			OPTION.maxOutputKBAsTool,
			OPTION.maxRowsAsTool,
			OPTION.outputAsTool,
			requestTimeoutOption(60, 'Longest time the request may take, at most 86400 (one day)'),
			{
				displayName: 'Response Format',
				name: 'responseFormat',
				type: 'options',
				default: 'json',
				options: [
					{ name: 'JSON', value: 'json' },
					{ name: 'CSV', value: 'csv', description: 'Ask for text/csv and parse it; every value is text unless Convert Types is on' },
				],
			},
			{
				displayName: 'UTC Timestamps',
				name: 'utcTimestamps',
				type: 'boolean',
				default: false,
				description: 'Whether Nexthink should give times in UTC instead of the instance\'s regional time zone',
			},
		],
	},
	{
		...ADVANCED_OPTIONS_COLLECTION,
		options: [
			megabyteLimit('Max Answer Size (MB)', 'maxAnswerMB', 64, 'Fail when the answer is larger than this many MB once decompressed (1 MB = 1,048,576 bytes; 0 = no limit). About 1,000 rows take a few MB; far more means a misbehaving server.'),
			{ ...OPTION.maxFieldMB, description: OPTION.maxFieldMB.description + CSV_ANSWERS_ONLY },
			{ ...OPTION.maxRowMB, description: OPTION.maxRowMB.description + CSV_ANSWERS_ONLY },
		],
	},
]);

export const executeExecuteQuery = itemOperation({
	prepare(itemIndex) {
		const query = readQuerySettings(this, itemIndex);
		return { query, settings: readExecuteSettings(this, itemIndex, query.catalogueEntry?.columns) };
	},
	async run(itemIndex, { query, settings }) {
		const { result, answeredAtMs } = await executeStoredQuery(this, query, settings, itemIndex);

		const mayBeIncomplete = result.rows.length >= EXECUTE_ROW_LIMIT;
		if (mayBeIncomplete) {
			this.addExecutionHints?.({
				message: `${query.queryId} returned ${result.rows.length} rows, the most Execute Query returns: the result may be incomplete. Use the Export operation for the full result.`,
				location: 'outputPane',
			});
		}
		const metadata: IDataObject = {
			...result.metadata,
			queryId: result.metadata.queryId ?? query.queryId,
			executionDateTime: executionDateTimeWithZone(result.metadata.executionDateTime, { utc: settings.utcTimestamps, answeredAtMs }),
			mayBeIncomplete,
		};
		return resultItems({
			rows: result.rows,
			metadata,
			metadataKey: 'nexthinkQuery',
			mode: settings.includeMetadata,
			pairedItem: { item: itemIndex },
			tool: settings.tool && {
				...settings.tool,
				rowsAfter: 0,
				totalUnknown: mayBeIncomplete,
				what: `the query ${query.queryId}`,
				fullResultHint: mayBeIncomplete
					? 'Execute Query itself returns about 1,000 rows at most; every row can be had by running the Export operation outside the agent.'
					: 'Every row can be had by running the node outside the agent.',
			},
		});
	},
});
