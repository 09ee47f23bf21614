// @ts-check
'use strict';

/**
 * A scripted stand-in for an OpenAI-compatible chat model, so the e2e suite can run n8n's real AI
 * Agent with this package's nodes as tools without a real model.
 *
 * `POST /v1/chat/completions` (the endpoint n8n's OpenAI Chat Model calls, at the credential's
 * Base URL):
 * - no `tool` message yet, and tools offered: the "model" calls the first tool, with the last user
 *   message parsed as JSON as the tool's arguments (so a case writes the arguments as its prompt);
 * - after a `tool` message: it answers with the text `TOOL ANSWER:` and that message's content, so
 *   the agent's output is what the tool gave the model.
 * A prompt `{ "toolCalls": [{ "tool": "<name>", "arguments": { ... } }, ...] }` is a script of several
 * calls instead: the n-th model turn after n−1 tool answers calls the n-th tool, and an argument
 * `{ "fromLastAnswer": "<key>" }` becomes the values of that key in the last tool answer's items,
 * joined by ", " (how a model passes on what one tool found to the next); after the last call it
 * answers as above.
 * Every request is kept in `requests`, every tool message's content in `toolAnswers`.
 */

const http = require('node:http');

/** @returns {Promise<{ url: string, requests: any[], toolAnswers: string[], clear: () => void, close: () => Promise<void> }>} */
async function startFakeChatModel() {
	/** @type {any[]} */
	const requests = [];
	/** @type {string[]} */
	const toolAnswers = [];
	let counter = 0;
	const server = http.createServer((request, response) => {
		const chunks = /** @type {Buffer[]} */ ([]);
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			const reply = (/** @type {number} */ status, /** @type {unknown} */ body) => {
				response.writeHead(status, { 'content-type': 'application/json' });
				response.end(JSON.stringify(body));
			};
			if (request.method !== 'POST' || !/\/chat\/completions$/.test(request.url ?? '')) return reply(404, { error: { message: 'not found' } });
			let body;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			} catch {
				return reply(400, { error: { message: 'the body is not JSON' } });
			}
			requests.push(body);
			const messages = Array.isArray(body.messages) ? body.messages : [];
			const toolMessages = messages.filter((/** @type {any} */ message) => message.role === 'tool');
			const id = `chatcmpl-${++counter}`;
			/** @type {any} */
			let message;
			const lastUser = [...messages].reverse().find((/** @type {any} */ candidate) => candidate.role === 'user');
			const prompt = parsedJson(textOf(lastUser?.content));
			const script = Array.isArray(prompt?.toolCalls) ? prompt.toolCalls : undefined;
			const lastAnswer = toolMessages.length > 0 ? textOf(toolMessages[toolMessages.length - 1].content) : undefined;
			if (lastAnswer !== undefined) toolAnswers.push(lastAnswer);
			if (script !== undefined && toolMessages.length < script.length) {
				const step = script[toolMessages.length];
				const args = Object.fromEntries(Object.entries(step.arguments ?? {}).map(([key, value]) => [key, fromLastAnswer(value, lastAnswer)]));
				message = { role: 'assistant', content: null, tool_calls: [{ id: `call_${counter}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(args) } }] };
			} else if (lastAnswer !== undefined) {
				message = { role: 'assistant', content: `TOOL ANSWER:\n${lastAnswer}` };
			} else if (Array.isArray(body.tools) && body.tools.length > 0) {
				// a prompt that is not JSON calls the tool without arguments
				const args = JSON.stringify(prompt ?? {});
				message = {
					role: 'assistant',
					content: null,
					tool_calls: [{ id: `call_${counter}`, type: 'function', function: { name: body.tools[0].function.name, arguments: args } }],
				};
			} else {
				message = { role: 'assistant', content: 'No tool was offered.' };
			}
			const finish = message.tool_calls ? 'tool_calls' : 'stop';
			if (body.stream === true) {
				response.writeHead(200, { 'content-type': 'text/event-stream' });
				const delta = message.tool_calls
					? { role: 'assistant', tool_calls: message.tool_calls.map((/** @type {any} */ call, /** @type {number} */ index) => ({ index, ...call })) }
					: { role: 'assistant', content: message.content };
				const chunk = (/** @type {any} */ choice) => ({ id, object: 'chat.completion.chunk', created: 0, model: body.model, choices: [choice] });
				response.write(`data: ${JSON.stringify(chunk({ index: 0, delta, finish_reason: null }))}\n\n`);
				response.write(`data: ${JSON.stringify(chunk({ index: 0, delta: {}, finish_reason: finish }))}\n\n`);
				response.end('data: [DONE]\n\n');
				return;
			}
			reply(200, {
				id,
				object: 'chat.completion',
				created: 0,
				model: body.model,
				choices: [{ index: 0, message, finish_reason: finish }],
				usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
			});
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${address.port}/v1`,
		requests,
		toolAnswers,
		clear: () => {
			requests.length = 0;
			toolAnswers.length = 0;
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/** JSON of a text, or undefined. @param {string} text */
function parsedJson(text) {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * A scripted argument: `{ fromLastAnswer: key }` → the values of `key` in the last tool answer's
 * items (a JSON list, or an object with such a list under a key), joined by ", "; anything else as is.
 * @param {any} value @param {string | undefined} lastAnswer
 */
function fromLastAnswer(value, lastAnswer) {
	if (value === null || typeof value !== 'object' || typeof value.fromLastAnswer !== 'string') return value;
	const answer = parsedJson(lastAnswer ?? '');
	const items = Array.isArray(answer) ? answer : Object.values(answer ?? {}).find(Array.isArray) ?? [];
	return items.flatMap((/** @type {any} */ item) => (item?.[value.fromLastAnswer] === undefined ? [] : [String(item[value.fromLastAnswer])])).join(', ');
}

/** A message's content as text (a string, or OpenAI's list of text parts). @param {unknown} content */
function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
	return '';
}

module.exports = { startFakeChatModel, parsedJson };
