import type { INodeProperties } from 'n8n-workflow';

/** The `options` collection of a node or operation, without its options: each lists its own. */
export const OPTIONS_COLLECTION: INodeProperties = { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {} };
