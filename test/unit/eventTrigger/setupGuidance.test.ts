/** What to type into Nexthink: the credential URL / Resource split with exactly one slash between them, and a template per table. */
import { EVENT_TABLES } from '../../../nodes/Nexthink/eventTrigger/eventTable';
import { listClause, payloadTemplate, setupLines, splitForNexthink } from '../../../nodes/Nexthink/eventTrigger/setupGuidance';

describe('splitForNexthink', () => {
	it('puts the origin with a trailing slash into the credential and the path without a leading one into the Resource', () => {
		const split = splitForNexthink('https://n8n.example.com/webhook/nexthink/alerts');
		expect(split.credentialUrl).toBe('https://n8n.example.com/');
		expect(split.resource).toBe('webhook/nexthink/alerts');
		expect(split.alternative).toEqual({ credentialUrl: 'https://n8n.example.com', resource: '/webhook/nexthink/alerts' });
		expect(split.warnings).toEqual([]);
	});

	it('gives back exactly the production URL, either way, by plain concatenation (the way Nexthink joins them)', () => {
		for (const url of ['https://n8n.example.com/webhook/a', 'https://n8n.example.com:8443/webhook/a/b?x=1', 'https://host/n8n/webhook/abc']) {
			const split = splitForNexthink(url);
			expect(split.credentialUrl + split.resource).toBe(url);
			expect(split.alternative.credentialUrl + split.alternative.resource).toBe(url);
			expect(split.credentialUrl.endsWith('/') !== split.resource.startsWith('/')).toBe(true);
			expect(split.alternative.credentialUrl.endsWith('/') !== split.alternative.resource.startsWith('/')).toBe(true);
		}
	});

	it('warns about plain HTTP, a host Nexthink cannot reach and the test URL', () => {
		const warnings = splitForNexthink('http://localhost:5678/webhook-test/abc').warnings.join('\n');
		expect(warnings).toMatch(/only HTTPS/);
		expect(warnings).toMatch(/localhost is not reachable/);
		expect(warnings).toMatch(/test URL/);
	});
});

describe('payloadTemplate', () => {
	it.each(EVENT_TABLES.map((table) => [table]))('gives %s a JSON template whose placeholders are all quoted, and the list clause it needs', (table) => {
		const template = payloadTemplate(table);
		const filled = template.replace(/\{\{[^}]+\}\}/g, '');
		expect(JSON.parse(filled)).toMatchObject({ source: 'nexthink', table });
		expect(template).not.toMatch(/:\s*\{\{/);
		for (const placeholder of template.match(/\{\{([^}]+)\}\}/g) ?? []) expect(listClause(table)).toContain(placeholder.slice(2, -2));
	});
});

describe('setupLines', () => {
	it('lists credential URL, Resource and, for a webhook with a table, the NQL and the payload', () => {
		const lines = setupLines('webhook', 'https://n8n.example.com/webhook/nx', 'alert.alerts');
		expect(lines.map((line) => line.label)).toEqual(['Connector credential URL', 'Resource', 'Or, split the other way: credential URL', 'Method', 'NQL condition', 'Payload']);
		expect(lines[4].value).toBe('alert.alerts | list alert.monitor.name, alert.status, alert.context, monitor.priority, trigger_time, recovery_time');
		expect(setupLines('workflowCall', 'http://127.0.0.1/webhook/x').filter((line) => line.label === 'Warning')).toHaveLength(2);
	});
});
