/** Headers and query in items carry no secret: by name, or by value when the value holds the credential's secret. */
import { redact } from '../../../nodes/Nexthink/eventTrigger/eventItems';
import { REDACTED } from '../../../nodes/Nexthink/transport';

describe('redactHeaders', () => {
	it('redacts credentials by name and keeps the rest', () => {
		const headers = {
			authorization: 'Bearer tok_secret_value_123456',
			'proxy-authorization': 'Basic abc',
			cookie: 'n8n-auth=x',
			'x-api-key': 'k',
			'x-nexthink-token': 't',
			'content-type': 'application/json',
			'user-agent': 'Nexthink',
		};
		expect(redact(headers)).toEqual({
			authorization: REDACTED,
			'proxy-authorization': REDACTED,
			cookie: REDACTED,
			'x-api-key': REDACTED,
			'x-nexthink-token': REDACTED,
			'content-type': 'application/json',
			'user-agent': 'Nexthink',
		});
	});

	it('redacts any value that contains a known secret, also in arrays', () => {
		const redacted = redact({ 'x-custom': 'prefix tok_secret_value_123456', 'x-list': ['a', 'tok_secret_value_123456'] }, ['tok_secret_value_123456']);
		expect(redacted).toEqual({ 'x-custom': REDACTED, 'x-list': REDACTED });
		expect(JSON.stringify(redacted)).not.toContain('tok_secret');
	});

	it('does not treat an empty secret as matching everything', () => {
		expect(redact({ accept: '*/*' }, [''])).toEqual({ accept: '*/*' });
	});
});

describe('redactQuery', () => {
	it('redacts query parameters named like secrets or holding one', () => {
		expect(redact({ token: 'x', access_token: 'y', device: 'PC-1', note: 'tok_secret_value_123456' }, ['tok_secret_value_123456'])).toEqual({
			token: REDACTED,
			access_token: REDACTED,
			device: 'PC-1',
			note: REDACTED,
		});
	});
});
