/**
 * Where the Export node reads each setting, by node version: 1.2 keeps the results-file and answer
 * limits, the polling curve and the start method in Advanced Options (`advancedOptions`), 1 and 1.1
 * in the operation's options (`options`, Execute Query's `executeOptions`). Same defaults and checks.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readExecuteSettings, readResultSettings, readStartSettings, readWaitSettings } from '../../../nodes/Nexthink/export/settings';
import { DEFAULT_RESULT_LIMITS, MB } from '../../../nodes/Nexthink/results/limits';
import { DEFAULT_WAIT_SETTINGS } from '../../../nodes/Nexthink/nql/waitSchedule';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../../nodes/Nexthink/nql/executeAnswer';

/** The parameters of one item, as n8n-core's getNodeParameter gives them (the fallback when unset). */
function context(typeVersion: number, parameters: Record<string, unknown>): IExecuteFunctions {
	return {
		getNode: () => ({ typeVersion, type: 'n8n-nodes-nexthink.nexthinkExport', name: 'Export' }),
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

describe('Export settings by node version', () => {
	it('1.2 reads them from Advanced Options; Maximum Wait and Output stay in Options', () => {
		const read = readAll(context(1.2, { options: { maxWaitSeconds: 60, output: 'file' }, advancedOptions: ADVANCED }));
		expect(read.wait).toMatchObject({ ...EXPECTED.wait, maxWaitMs: 60_000 });
		expect(read.start.method).toBe('GET');
		expect(read.limits).toEqual(EXPECTED.limits);
	});

	it('1.2 ignores them under Options (the defaults apply)', () => {
		const read = readAll(context(1.2, { options: ADVANCED }));
		expect(read.wait).toMatchObject({ firstDelayMs: DEFAULT_WAIT_SETTINGS.firstDelayMs, factor: DEFAULT_WAIT_SETTINGS.factor, maxIntervalMs: DEFAULT_WAIT_SETTINGS.maxIntervalMs });
		expect(read.start.method).toBe('POST');
		expect(read.limits).toEqual(DEFAULT_RESULT_LIMITS);
	});

	it.each([1, 1.1])('%s reads them from Options and ignores Advanced Options', (version) => {
		const read = readAll(context(version, { options: ADVANCED, advancedOptions: { firstPollSeconds: 9, startMethod: 'POST', maxFieldMB: 9 } }));
		expect(read.wait).toMatchObject(EXPECTED.wait);
		expect(read.start.method).toBe('GET');
		expect(read.limits).toEqual(EXPECTED.limits);
	});

	it.each([1, 1.1, 1.2])('%s: the same defaults when nothing is set', (version) => {
		const read = readAll(context(version, {}));
		expect(read.wait).toEqual({ ...DEFAULT_WAIT_SETTINGS, failOnTimeout: true });
		expect(read.start.method).toBe('POST');
		expect(read.limits).toEqual(DEFAULT_RESULT_LIMITS);
	});

	it.each([
		[1.1, 'options'],
		[1.2, 'advancedOptions'],
	])('%s: the same check, naming the setting, for a value where the version keeps it', (version, collection) => {
		expect(() => readWaitSettings(context(version, { [collection]: { pollGrowthFactor: 0.5 } }), 0)).toThrow(/Poll Interval Growth/);
		expect(() => readResultSettings(context(version, { [collection]: { maxFieldMB: -1 } }), 0)).toThrow('Max Field Size (MB) must be a number, 0 (no limit) or more.');
	});

	it('Execute Query: the answer and CSV limits from Advanced Options in 1.2, from its Options before', () => {
		const limits = { maxAnswerMB: 3, maxFieldMB: 1, maxRowMB: 2 };
		const v12 = readExecuteSettings(context(1.2, { executeOptions: { responseFormat: 'csv' }, advancedOptions: limits }), 0);
		expect(v12).toMatchObject({ asCsv: true, maxAnswerBytes: 3 * MB, limits: { maxFieldChars: MB, maxRecordChars: 2 * MB } });
		expect(readExecuteSettings(context(1.2, { executeOptions: limits }), 0)).toMatchObject({ maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES, limits: DEFAULT_RESULT_LIMITS });
		expect(readExecuteSettings(context(1.1, { executeOptions: limits, advancedOptions: { maxAnswerMB: 9 } }), 0)).toMatchObject({
			maxAnswerBytes: 3 * MB,
			limits: { maxFieldChars: MB, maxRecordChars: 2 * MB },
		});
	});
});
