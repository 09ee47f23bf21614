/**
 * What an administrator types into Nexthink for this trigger, built from its production URL: the origin
 * goes into the connector credential's URL and the path and query into the Resource, exactly one of
 * them carrying the slash between them (docs/decisions.md, "Setup guidance"; docs/event-trigger.md).
 */
import { TEMPLATE_FIELDS, type EventTable } from './eventTable';
import type { Channel } from './requestChecks';

const PRIVATE_HOST = /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$|0\.0\.0\.0)/i;

/**
 * The credential's URL (the origin with a trailing slash) and the Resource (the path without a leading
 * one): the documented form; `alternative`, the same URL split the other way; and what to fix first.
 */
export function splitForNexthink(productionUrl: string) {
	const url = new URL(productionUrl);
	const origin = `${url.protocol}//${url.host}`;
	const resource = `${url.pathname}${url.search}`.replace(/^\/+/, '');
	const warnings = [
		url.protocol !== 'https:' && 'Nexthink calls only HTTPS URLs: serve n8n over HTTPS (or behind an HTTPS proxy) and set WEBHOOK_URL to that address',
		PRIVATE_HOST.test(url.hostname) && `${url.hostname} is not reachable from Nexthink's cloud: set WEBHOOK_URL to n8n's public address`,
		/\/webhook-test\//.test(url.pathname) && "This is n8n's test URL: it answers only while the editor listens for a test event; give Nexthink the production URL",
	].filter((warning) => warning !== false);
	return { credentialUrl: `${origin}/`, resource, alternative: { credentialUrl: origin, resource: `/${resource}` }, warnings };
}

/**
 * A payload template for a table: every placeholder inside quotes, so the body stays JSON when a
 * value is empty or during a *Test send*; `source` and `table` let the trigger name the table.
 */
export function payloadTemplate(table: EventTable): string {
	const fields = TEMPLATE_FIELDS[table];
	const entries = [`"source": "nexthink"`, `"table": "${table}"`, ...Object.entries(fields).map(([key, field]) => `"${key}": "{{${field}}}"`)];
	return `{\n  ${entries.join(',\n  ')}\n}`;
}

/** The NQL `list` clause a template needs. */
export function listClause(table: EventTable): string {
	return `list ${Object.values(TEMPLATE_FIELDS[table]).join(', ')}`;
}

/** The values to type into Nexthink, one line each, for the trigger's production URL. */
export function setupLines(channel: Channel, productionUrl: string, table?: EventTable): Array<{ label: string; value: string }> {
	const split = splitForNexthink(productionUrl);
	const lines = [
		{ label: 'Connector credential URL', value: split.credentialUrl },
		{ label: 'Resource', value: split.resource },
		{ label: 'Or, split the other way: credential URL', value: `${split.alternative.credentialUrl} with Resource ${split.alternative.resource}` },
	];
	if (channel === 'webhook') {
		lines.push({ label: 'Method', value: 'POST, PUT or PATCH' });
		if (table) {
			lines.push({ label: 'NQL condition', value: `${table} | ${listClause(table)}` });
			lines.push({ label: 'Payload', value: payloadTemplate(table).replace(/\n\s*/g, ' ') });
		}
	} else if (channel === 'dataExporter') {
		lines.push({ label: 'Structure', value: 'an array of objects, or an object with one array of records (NDJSON also works, sent as text)' });
	} else {
		lines.push({ label: 'Answer', value: 'JSON; read it with $.field in the thinklet outputs; Nexthink waits 10 seconds at most' });
	}
	for (const warning of split.warnings) lines.push({ label: 'Warning', value: warning });
	return lines;
}
