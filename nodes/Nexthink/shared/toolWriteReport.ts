/**
 * What a write tool tells the model it did: the last item of a batched write's tool run
 * (runBatched.ts), `nexthinkToolWrites`, lists each request sent, the object it acted on and its
 * request IDs, or that nothing was sent (docs/decisions.md, "The write report is the last item"). Pure.
 */
export const TOOL_WRITES_KEY = 'nexthinkToolWrites';

export interface SentRequestReport {
	/** The object the request acted on (a remote action's, workflow's or campaign's NQL ID), when there is one. */
	target?: string;
	/** The request IDs it got; empty when the API gives none. */
	requestIds: string[];
	/** The input items it carried. */
	items: number[];
	ok: boolean;
	/** Why it failed, when it did. */
	error?: string;
}

export function toolWriteReport(requests: readonly SentRequestReport[]): { summary: string; requestsSent: number; requests: SentRequestReport[] } {
	if (requests.length === 0) return { summary: 'Nothing was sent to Nexthink by this tool call.', requestsSent: 0, requests: [] };
	const sent = requests.filter((request) => request.ok).length;
	const lines = requests.map((request) => {
		const target = request.target !== undefined ? `${request.target}, ` : '';
		const items = `item${request.items.length === 1 ? '' : 's'} ${request.items.join(', ')}`;
		if (!request.ok) return `${target}${items}: not done (${request.error ?? 'no answer'})`;
		const ids = request.requestIds.length > 0 ? `request ID${request.requestIds.length === 1 ? '' : 's'} ${request.requestIds.join(', ')}` : items;
		return `${target}${ids}`;
	});
	const failed = requests.length - sent;
	const counts = `${sent} request${sent === 1 ? '' : 's'} sent to Nexthink${failed > 0 ? ` (${failed} failed or not sent)` : ''}`;
	return { summary: `${counts} by this tool call: ${lines.join('; ')}.`, requestsSent: sent, requests: requests.map((request) => ({ ...request })) };
}
