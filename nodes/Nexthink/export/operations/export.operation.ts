/** Export: start an export, wait for it, download the file and output its rows. */
import { updateDisplayOptions } from 'n8n-workflow';

import { followExport } from '../../nql/followExport';
import { buildResultItems, completedExportOptions } from '../resultItems';
import { readQuerySettings, readResultSettings, readStartSettings, readTimeoutMs, readWaitSettings } from '../settings';
import { itemOperation } from '../../shared/runItems';
import { OPTIONS_COLLECTION } from '../../shared/optionFields';
import { ADVANCED_OPTIONS_COLLECTION, compressionField, exportQueryFields, OPTION, RESULT_LIMIT_OPTIONS, RESULTS_FILE_OPTIONS } from '../description';
import { waitField } from '../../nql/waitSchedule';

export const description = updateDisplayOptions({ show: { '/operation': ['export'] } }, [
	...exportQueryFields,
	compressionField,
	{
		...OPTIONS_COLLECTION,
		options: [
			waitField(
				'maxWaitSeconds',
				'How long to wait for the export to complete before giving up (1800 = 30 minutes). A hard bound: a status check that gets no answer is cut off when it runs out.',
			),
			{
				displayName: 'On Timeout',
				name: 'onTimeout',
				type: 'options',
				default: 'fail',
				options: [
					{ name: 'Fail', value: 'fail', description: 'Stop with an error that says how to continue' },
					{
						name: 'Return Last Status',
						value: 'returnStatus',
						description: 'Output the export ID and last status with waitTimedOut: true, e.g. to continue with Get Status in a Wait loop',
					},
				],
			},
			OPTION.logTag,
			...RESULTS_FILE_OPTIONS,
		],
	},
	{
		...ADVANCED_OPTIONS_COLLECTION,
		// the polling curve: when the status checks come (docs/decisions.md, "Wait settings")
		options: [
			waitField('firstPollSeconds', 'How long to wait before the first status check'),
			waitField('maxPollIntervalSeconds', 'The wait between status checks never grows beyond this. Two status checks are always at least 1 second apart, whatever the settings.'),
			...RESULT_LIMIT_OPTIONS,
			waitField(
				'pollGrowthFactor',
				'Each wait between status checks is this many times the previous one, so short exports return fast and long ones cost few status calls (Nexthink limits status calls per day). With the defaults the checks come 2, 6, 14, 30 and 60 seconds after the start, then every 30 seconds.',
			),
			OPTION.startMethod,
		],
	},
]);

export const executeExport = itemOperation({
	prepare(itemIndex) {
		const query = readQuerySettings(this, itemIndex);
		return {
			query,
			start: readStartSettings(this, itemIndex),
			wait: readWaitSettings(this, itemIndex),
			settings: readResultSettings(this, itemIndex, query.catalogueEntry?.columns),
			timeoutMs: readTimeoutMs(this, itemIndex),
		};
	},
	async run(itemIndex, { query, start, wait, settings, timeoutMs }) {
		const context = { queryId: query.queryId, declaredCompression: start.compression, timeoutMs, settings };
		const timedOutHint = wait.failOnTimeout
			? 'Raise "Maximum Wait" in the options, or set "On Timeout" to "Return Last Status" and continue with Get Status in a loop through a Wait node, or use Start Export and Get Status for very long exports.'
			: undefined;
		const followed = await followExport(this, { start: { ...query, ...start }, wait, timedOutHint }, completedExportOptions(this, itemIndex, context));
		if (followed.timedOut) {
			return [{ json: { ...followed.report, queryId: query.queryId, waitTimedOut: true }, pairedItem: { item: itemIndex } }];
		}
		return await buildResultItems(this, itemIndex, followed.report, followed.results, context);
	},
});
