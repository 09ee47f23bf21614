/**
 * Where the Export node reads each setting: the results-file and answer limits, the polling curve
 * and the start method in Advanced Options (`advancedOptions`), the everyday settings in the
 * operation's Options (`options`). Same defaults and checks.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readExecuteSettings, readResultSettings, readStartSettings, readWaitSettings } from '../../../nodes/Nexthink/export/settings';
import { DEFAULT_RESULT_LIMITS, MB } from '../../../nodes/Nexthink/results/limits';
import { DEFAULT_WAIT_SETTINGS } from '../../../nodes/Nexthink/nql/waitSchedule';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../../nodes/Nexthink/nql/executeAnswer';

/** The parameters of one item, as n8n-core's getNodeParameter gives them (the fallback when unset). */
function context(parameters: Record<string, unknown>): IExecuteFunctions {
	return {
		getNode: () => ({ typeVersion: 1, type: 'n8n-nodes-nexthink.nexthinkExport', name: 'Export' }),
		getNodeParameter: (name: string, _item: number, fallback: unknown) => parameters[name] ?? fallback,
	} as unknown as IExecuteFunctions;
}

const ADVANCED = { firstPollSeconds: 5, pollGrowthFactor: 3, maxPollIntervalSeconds: 40, startMethod: 'GET', maxDecompressedMB: 10, maxCompressionRatio: 7, maxFieldMB: 1, maxRowMB: 2 };
const EXPECTED = {
	wait: { firstDelayMs: 5000, factor: 3, maxIntervalMs: 40_000 },
	limits: { maxDecompressedBytes: 10 * MB, maxCompressionRatio: 7, maxFieldChars: MB, maxRecordChars: 2 * MB },
};

function readAll(ctx: IExecuteFunctions) {
	return { wait: readWaitSettings(ctx, 0), start: readStartSettings(ctx, 0), limits: readResultSettings(ctx, 0).limits };
}

describe('Export settings: Options and Advanced Options', () => {
	it('reads them from Advanced Options; Maximum Wait and Output stay in Options', () => {
		const read = readAll(context({ options: { maxWaitSeconds: 60, output: 'file' }, advancedOptions: ADVANCED }));
		expect(read.wait).toMatchObject({ ...EXPECTED.wait, maxWaitMs: 60_000 });
		expect(read.start.method).toBe('GET');
		expect(read.limits).toEqual(EXPECTED.limits);
	});

	it('ignores them under Options (the defaults apply)', () => {
		const read = readAll(context({ options: ADVANCED }));
		expect(read.wait).toMatchObject({ firstDelayMs: DEFAULT_WAIT_SETTINGS.firstDelayMs, factor: DEFAULT_WAIT_SETTINGS.factor, maxIntervalMs: DEFAULT_WAIT_SETTINGS.maxIntervalMs });
		expect(read.start.method).toBe('POST');
		expect(read.limits).toEqual(DEFAULT_RESULT_LIMITS);
	});

	it('the defaults when nothing is set', () => {
		const read = readAll(context({}));
		expect(read.wait).toEqual({ ...DEFAULT_WAIT_SETTINGS, failOnTimeout: true });
		expect(read.start.method).toBe('POST');
		expect(read.limits).toEqual(DEFAULT_RESULT_LIMITS);
	});

	it('a bad value in Advanced Options fails its check, naming the setting', () => {
		expect(() => readWaitSettings(context({ advancedOptions: { pollGrowthFactor: 0.5 } }), 0)).toThrow(/Poll Interval Growth/);
		expect(() => readResultSettings(context({ advancedOptions: { maxFieldMB: -1 } }), 0)).toThrow('Max Field Size (MB) must be a number, 0 (no limit) or more.');
	});

	it('Execute Query: the answer and CSV limits from Advanced Options, not from its Options', () => {
		const limits = { maxAnswerMB: 3, maxFieldMB: 1, maxRowMB: 2 };
		const read = readExecuteSettings(context({ options: { responseFormat: 'csv' }, advancedOptions: limits }), 0);
		expect(read).toMatchObject({ asCsv: true, maxAnswerBytes: 3 * MB, limits: { maxFieldChars: MB, maxRecordChars: 2 * MB } });
		expect(readExecuteSettings(context({ options: limits }), 0)).toMatchObject({ maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES, limits: DEFAULT_RESULT_LIMITS });
	});
});
