/** What a call must be before its body is read: the channel's methods, a JSON-capable content type, a size within the limits. */
import { checkContentType, checkDeclaredSize, checkMethod, checkReadSize, readFailure, refusalBody } from '../../../nodes/Nexthink/eventTrigger/requestChecks';
import { MB } from '../../../nodes/Nexthink/results/limits';

describe('checkMethod', () => {
	it('takes POST, PUT and PATCH for webhooks and exporters, and all five for workflow calls', () => {
		for (const method of ['POST', 'PUT', 'PATCH']) {
			expect(checkMethod('webhook', method)).toBeUndefined();
			expect(checkMethod('dataExporter', method)).toBeUndefined();
		}
		for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(checkMethod('workflowCall', method)).toBeUndefined();
		expect(checkMethod('webhook', 'GET')).toEqual({ status: 405, error: 'method_not_allowed', message: 'This trigger takes POST, PUT, PATCH calls, not GET', headers: { allow: 'POST, PUT, PATCH' } });
	});
});

describe('checkContentType', () => {
	it.each([undefined, 'application/json', 'application/json; charset=utf-8', 'application/x-ndjson', 'text/plain', 'application/octet-stream', 'application/vnd.api+json'])(
		'reads %s as JSON',
		(type) => expect(checkContentType(type)).toBeUndefined(),
	);
	it.each(['multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'text/html', 'application/xml', 'application/soap+xml', 'image/png'])('refuses %s with 400', (type) => {
		expect(checkContentType(type)).toMatchObject({ status: 400, error: 'unsupported_content_type' });
	});
});

describe('size checks', () => {
	it('refuses a declared or read size over the limit with 413', () => {
		expect(checkDeclaredSize(String(2 * MB + 1), 2 * MB)).toMatchObject({ status: 413, message: expect.stringMatching(/limit of 2 MB/) });
		expect(checkDeclaredSize(String(2 * MB), 2 * MB)).toBeUndefined();
		expect(checkDeclaredSize(undefined, 1)).toBeUndefined();
		expect(checkDeclaredSize('abc', 1)).toBeUndefined();
		expect(checkReadSize(11, 10)).toMatchObject({ status: 413 });
		expect(checkReadSize(10, 10)).toBeUndefined();
	});

	it("names n8n's limit when n8n refused to read the body, and a broken call otherwise", () => {
		expect(readFailure(Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' }))).toMatchObject({ status: 413, message: expect.stringMatching(/N8N_PAYLOAD_SIZE_MAX/) });
		expect(readFailure(new Error('aborted'))).toMatchObject({ status: 400, error: 'unreadable_body' });
	});

	it('answers a flat JSON a Nexthink workflow can branch on', () => {
		expect(refusalBody({ status: 413, error: 'payload_too_large', message: 'm' })).toEqual({ status: 'error', error: 'payload_too_large', message: 'm' });
	});
});
