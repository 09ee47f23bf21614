import { buildBatches, failBatch, interpretResponse, type Batch } from '../../../nodes/Nexthink/enrichment/api';

const NAME = 'device/device/name';

function batchOf(...names: string[]): Batch {
	const items = names.map((value, itemIndex) => ({
		itemIndex,
		identification: { name: NAME, value },
		fields: [{ name: 'device/device/#tier', value: 'gold' }],
	}));
	return buildBatches(items, 1000)[0];
}

const objectError = (value: string, ...errors: Array<[string, string]>) => ({
	identification: [{ name: NAME, value }],
	errors: errors.map(([code, message]) => ({ code, message })),
});

describe('interpretResponse', () => {
	it('200: every object applied', () => {
		const results = interpretResponse(batchOf('A', 'B'), 200, { status: 'success' });
		expect(results).toEqual([
			{ applied: true, errors: [], warnings: [] },
			{ applied: true, errors: [], warnings: [] },
		]);
	});

	it.each([undefined, '', '<html>login</html>', {}, { status: 'ok' }, [], { status: 'SUCCESS' }])(
		'a 2xx without the documented body (%j) applies nothing and says where the answer came from',
		(body) => {
			const results = interpretResponse(batchOf('A', 'B'), 200, body, { headers: { 'content-type': 'text/html; charset=utf-8' }, host: 'proxy.example:8443' });
			expect(results.map((result) => result.applied)).toEqual([false, false]);
			expect(results[0].errors).toEqual([
				{ code: 'UNEXPECTED_RESPONSE', source: 'api', message: expect.stringMatching(/^Unexpected answer \(HTTP 200, text\/html\) from proxy\.example:8443: /) },
			]);
		},
	);

	it('a 200 with status partial_success and an errors list is read as a partial success', () => {
		const results = interpretResponse(batchOf('A', 'B'), 200, { status: 'partial_success', errors: [objectError('A', ['X', 'bad'])] });
		expect(results.map((result) => result.applied)).toEqual([false, true]);
	});

	it('207: the listed objects fail with their own errors, the others are applied', () => {
		const body = {
			status: 'partial_success',
			errors: [
				objectError('C', ['OBJECT_NOT_FOUND', 'No device named C'], ['FIELD_NOT_FOUND', 'No custom field #tier']),
				objectError('A', ['OBJECT_NOT_FOUND', 'No device named A']),
			],
		};
		const results = interpretResponse(batchOf('A', 'B', 'C'), 207, body);
		expect(results.map((result) => result.applied)).toEqual([false, true, false]);
		expect(results[0].errors).toEqual([{ code: 'OBJECT_NOT_FOUND', message: 'No device named A', source: 'api' }]);
		expect(results[2].errors.map((error) => error.code)).toEqual(['OBJECT_NOT_FOUND', 'FIELD_NOT_FOUND']);
		expect(results[1]).toEqual({ applied: true, errors: [], warnings: [] });
	});

	it('207: matches an echoed identification that differs only in case', () => {
		const results = interpretResponse(batchOf('PC-One', 'B'), 207, { errors: [objectError('pc-one', ['X', 'bad'])] });
		expect(results.map((result) => result.applied)).toEqual([false, true]);
	});

	it('207: an error naming no object of the batch is kept as a warning on the applied objects', () => {
		const results = interpretResponse(batchOf('A', 'B'), 207, {
			errors: [objectError('A', ['X', 'bad A']), objectError('Z', ['Y', 'bad Z'])],
		});
		expect(results[0]).toEqual({ applied: false, errors: [{ code: 'X', message: 'bad A', source: 'api' }], warnings: [] });
		expect(results[1].applied).toBe(true);
		expect(results[1].warnings).toEqual([{ code: 'Y', message: `${NAME} = Z: bad Z`, source: 'api' }]);
	});

	it('207 without an errors list: nothing can be confirmed', () => {
		const results = interpretResponse(batchOf('A'), 207, { status: 'partial_success' });
		expect(results[0].applied).toBe(false);
		expect(results[0].errors[0].code).toBe('UNEXPECTED_RESPONSE');
	});

	it('400 with errors: every object fails; listed ones carry their errors, the rest a batch error', () => {
		const results = interpretResponse(batchOf('A', 'B'), 400, { status: 'error', errors: [objectError('B', ['INVALID', 'bad B'])] });
		expect(results.map((result) => result.applied)).toEqual([false, false]);
		expect(results[1].errors).toEqual([{ code: 'INVALID', message: 'bad B', source: 'api' }]);
		expect(results[0].errors[0].code).toBe('BATCH_REJECTED');
	});

	it('400 with errors that match no object: those errors go to every object', () => {
		const results = interpretResponse(batchOf('A', 'B'), 400, { status: 'error', errors: [objectError('Q', ['INVALID', 'bad Q'])] });
		expect(results.every((result) => result.errors[0].message === `${NAME} = Q: bad Q`)).toBe(true);
	});

	it('400 with a bare {message, code}: the whole batch fails with it', () => {
		const results = interpretResponse(batchOf('A', 'B'), 400, { message: 'domain must not be empty', code: 'INVALID_DOMAIN' });
		expect(results).toEqual([
			{ applied: false, errors: [{ code: 'INVALID_DOMAIN', message: 'domain must not be empty', source: 'api' }], warnings: [] },
			{ applied: false, errors: [{ code: 'INVALID_DOMAIN', message: 'domain must not be empty', source: 'api' }], warnings: [] },
		]);
	});

	it('400 with a numeric code or no body still fails every object', () => {
		expect(interpretResponse(batchOf('A'), 400, { message: 'bad', code: 12 })[0].errors[0].code).toBe('12');
		expect(interpretResponse(batchOf('A'), 400, undefined)[0].errors[0].code).toBe('BATCH_REJECTED');
		expect(interpretResponse(batchOf('A'), 400, 'not json')[0].errors[0].code).toBe('BATCH_REJECTED');
	});

	it('an object listed without error details still fails', () => {
		const results = interpretResponse(batchOf('A', 'B'), 207, { errors: [{ identification: [{ name: NAME, value: 'A' }], errors: [] }] });
		expect(results[0].applied).toBe(false);
		expect(results[0].errors[0].code).toBe('UNEXPECTED_RESPONSE');
	});

	it('other statuses fail the batch', () => {
		expect(interpretResponse(batchOf('A'), 202, {})[0]).toMatchObject({ applied: false, errors: [{ code: 'UNEXPECTED_RESPONSE' }] });
	});
});

describe('failBatch', () => {
	it('gives every object the same error', () => {
		const error = { code: 'HTTP_503', message: 'unavailable', source: 'api' as const };
		expect(failBatch(batchOf('A', 'B'), error)).toEqual([
			{ applied: false, errors: [error], warnings: [] },
			{ applied: false, errors: [error], warnings: [] },
		]);
	});
});
