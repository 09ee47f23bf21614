/** The Spark resource's operation picker (the Spark Handoff API). */
import { operationPicker } from '../shared/panelFields';

export const show = { show: { resource: ['spark'], operation: ['handOff'] } };

export const sparkOperationProperty = operationPicker('spark', 'handOff', [
	{
		name: 'Hand Off Conversation',
		value: 'handOff',
		action: 'Hand off a conversation to spark',
		description: 'Hand the user over to Nexthink Spark, which continues the conversation in Microsoft Teams',
	},
]);
