/**
 * Rules about the nodes' parameters that n8n's linters check only in part (they read the node file,
 * while our parameters live in description modules): no optional open-ended JSON field at the top
 * level (n8n's upcoming `open-ended-node-fields` rule, see
 * https://github.com/n8n-io/n8n/tree/master/packages/@n8n/eslint-plugin-community-nodes).
 */
import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { NexthinkTrigger } from '../../nodes/Nexthink/trigger/NexthinkTrigger.node';

describe.each([
	['Nexthink Export', new NexthinkExport()],
	['Nexthink Enrichment', new NexthinkEnrichment()],
	['Nexthink Actions', new NexthinkActions()],
	['Nexthink Trigger', new NexthinkTrigger()],
])('%s parameters', (_name, node) => {
	it('has no optional top-level JSON field', () => {
		const optionalJson = node.description.properties.filter((property) => property.type === 'json' && property.required !== true);
		expect(optionalJson.map((property) => property.name)).toEqual([]);
	});
});
