/** The campaign trigger's 200 (no n8n imports): `{ requests: [{ userSid, requestId?, message? }] }`; undefined: not it. */
export interface UserResult {
	requestId?: string;
	message?: string;
}

export function readTriggerResponse(body: unknown): Map<string, UserResult> | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const requests = (body as { requests?: unknown }).requests;
	if (!Array.isArray(requests) || requests.length === 0) return undefined;
	const byUser = new Map<string, UserResult>();
	for (const entry of requests) {
		if (typeof entry !== 'object' || entry === null) return undefined;
		const { userSid, requestId, message } = entry as Record<string, unknown>;
		if (typeof userSid !== 'string' || userSid === '') return undefined;
		const result: UserResult = {};
		if (typeof requestId === 'string' && requestId !== '') result.requestId = requestId;
		if (typeof message === 'string' && message !== '') result.message = message;
		if (result.requestId === undefined && result.message === undefined) return undefined;
		byUser.set(userSid, result);
	}
	return byUser;
}
