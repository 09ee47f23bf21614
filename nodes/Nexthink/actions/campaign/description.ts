/** The Campaign resource's operation picker (the Campaigns API has no list: the campaign is given by NQL ID). */
import { operationPicker } from '../shared/panelFields';

export const show = { show: { resource: ['campaign'], operation: ['trigger'] } };

export const campaignOperationProperty = operationPicker('campaign', 'trigger', [{ name: 'Trigger', value: 'trigger', action: 'Trigger a campaign', description: 'Send a campaign to the users of the input items' }]);
