// @ts-check
'use strict';

/**
 * The MCP client configurations the docs show (docs/mcp-clients/, quoted in docs/ai-agents.md), read
 * as each client reads them, so the end-to-end suite connects with exactly the documented text:
 *
 * - Claude Desktop (`claude_desktop_config.json`) starts only local programs: `command` and `args`
 *   are run as they are, with `env` added to the environment; it expands no variables itself
 *   (mcp-remote replaces `${NAME}` in its own `--header` values).
 * - Claude Code: `claude mcp add --transport http <name> <url> [--header "Name: value"]`, or a
 *   project's `.mcp.json` (`"type": "http"`), which expands `${NAME}` and `${NAME:-default}` from
 *   the environment.
 * - Cursor (`.cursor/mcp.json`): `url` and `headers`, expanding `${env:NAME}`.
 * - VS Code (`.vscode/mcp.json`): `servers` with `"type": "http"`, expanding `${input:id}` from
 *   the `inputs` it prompts for.
 *
 * Streamable HTTP is the transport each of the URL-based clients tries first (they fall back to SSE
 * only when it fails). Anything this reader does not know (another key, a variable left
 * unexpanded, a second URL) fails the check instead of being skipped, so the docs cannot drift.
 */

const fs = require('node:fs');
const path = require('node:path');

const CLIENTS_DIR = path.resolve(__dirname, '../../../docs/mcp-clients');

/** The URLs the documented configurations name: the sandbox of `npm start`, and a server with Bearer Auth. */
const DOC_URLS = Object.freeze({ local: 'http://127.0.0.1:5678/mcp/nexthink', remote: 'https://n8n.example.com/mcp/nexthink' });
/** What the reader of the docs replaces with their token (Claude Desktop's env, Claude Code's command). */
const TOKEN_PLACEHOLDER = '<your token>';
/** The environment variable the Claude Code and Cursor files read the token from. */
const TOKEN_VARIABLE = 'NEXTHINK_MCP_TOKEN';

/**
 * One connection a client would open.
 * @typedef {{ label: string, authenticated: boolean } & ({ transport: 'streamableHttp', url: string, headers: Record<string, string> } | { transport: 'stdio', command: string, args: string[], env: Record<string, string> })} ClientConnection
 */

/**
 * The URL a documented one stands for. @param {string} documented
 * @param {{ local: string, remote: string }} urls  the real URLs: without and with authentication
 */
function realUrl(documented, urls) {
	if (documented === DOC_URLS.local) return urls.local;
	if (documented === DOC_URLS.remote) return urls.remote;
	throw new Error(`unexpected URL ${JSON.stringify(documented)}: the docs use ${DOC_URLS.local} or ${DOC_URLS.remote}`);
}

/** @param {object} object @param {string[]} allowed @param {string} where */
function onlyKeys(object, allowed, where) {
	const unknown = Object.keys(object).filter((key) => !allowed.includes(key));
	if (unknown.length > 0) throw new Error(`${where}: unexpected ${unknown.join(', ')}`);
}

/** Fails on a variable a client left unexpanded. @param {string} text @param {string} where */
function expanded(text, where) {
	if (/\$\{[^}]*\}/.test(text)) throw new Error(`${where}: ${JSON.stringify(text)} still holds a variable`);
	return text;
}

/**
 * Splits a command line as a POSIX shell does for words, single and double quotes (no expansion:
 * the documented commands have none). @param {string} line
 */
function shellWords(line) {
	/** @type {string[]} */ const words = [];
	let word = '';
	let inWord = false;
	for (let index = 0; index < line.length; index++) {
		const char = line[index];
		if (char === "'" || char === '"') {
			const end = line.indexOf(char, index + 1);
			if (end < 0) throw new Error(`unbalanced ${char} in ${line}`);
			word += line.slice(index + 1, end);
			inWord = true;
			index = end;
		} else if (/\s/.test(char)) {
			if (inWord) words.push(word);
			word = '';
			inWord = false;
		} else if ('\\$`;&|<>'.includes(char)) {
			throw new Error(`the reader does not interpret ${char} (in ${line})`);
		} else {
			word += char;
			inWord = true;
		}
	}
	if (inWord) words.push(word);
	return words;
}

/** `Name: value` as Claude Code's `--header` and mcp-remote take it. @param {string} header */
function headerEntry(header) {
	const colon = header.indexOf(':');
	if (colon <= 0) throw new Error(`header ${JSON.stringify(header)} is not "Name: value"`);
	return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
}

/**
 * Claude Code's `claude mcp add` lines (comments skipped).
 * @param {string} text @param {{ local: string, remote: string }} urls @param {string} token
 * @returns {ClientConnection[]}
 */
function claudeCodeCommands(text, urls, token) {
	return text
		.split('\n')
		.filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
		.map((line) => {
			const words = shellWords(line.split(TOKEN_PLACEHOLDER).join(token));
			if (words.slice(0, 3).join(' ') !== 'claude mcp add') throw new Error(`not a "claude mcp add" command: ${line}`);
			/** @type {Record<string, string>} */ const headers = {};
			/** @type {string[]} */ const positional = [];
			let transport;
			for (let index = 3; index < words.length; index++) {
				const word = words[index];
				if (word === '--transport' || word === '-t') transport = words[++index];
				else if (word === '--header' || word === '-H') {
					const [name, value] = headerEntry(words[++index]);
					headers[name] = value;
				} else if (word === '--scope' || word === '-s') index++;
				else if (word.startsWith('-')) throw new Error(`the reader does not know ${word} (in ${line})`);
				else positional.push(word);
			}
			if (transport !== 'http') throw new Error(`expected --transport http in ${line}`);
			if (positional.length !== 2) throw new Error(`expected a name and a URL in ${line}`);
			return {
				label: `claude mcp add ${positional[0]} ${positional[1]}`,
				authenticated: Object.keys(headers).length > 0,
				transport: 'streamableHttp',
				url: realUrl(positional[1], urls),
				headers,
			};
		});
}

/**
 * The one server (`nexthink`) of a client's JSON file.
 * @param {any} json @param {'mcpServers' | 'servers'} key @param {string} file
 */
function theServer(json, key, file) {
	const servers = json[key];
	if (!servers || Object.keys(servers).join() !== 'nexthink') throw new Error(`${file}: expected "${key}" with one server "nexthink"`);
	return servers.nexthink;
}

/**
 * Expands a client's variables in each header value.
 * @param {Record<string, string> | undefined} headers @param {(text: string) => string} expand @param {string} file
 */
function expandedHeaders(headers, expand, file) {
	return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, expanded(expand(value), `${file} header ${name}`)]));
}

/**
 * The connections one documented file opens, as its client reads it, for the real URLs and token.
 * @param {string} file  a file name in docs/mcp-clients
 * @param {{ urls: { local: string, remote: string }, token: string }} values
 * @returns {ClientConnection[]}
 */
function clientConnections(file, values) {
	const { urls, token } = values;
	const text = fs.readFileSync(path.join(CLIENTS_DIR, file), 'utf8');
	if (file === 'claude-code.sh') return claudeCodeCommands(text, urls, token);
	const json = JSON.parse(text);
	if (file.startsWith('claude-desktop')) {
		onlyKeys(json, ['mcpServers'], file);
		const server = theServer(json, 'mcpServers', file);
		onlyKeys(server, ['command', 'args', 'env'], file);
		const env = Object.fromEntries(Object.entries(server.env ?? {}).map(([name, value]) => [name, String(value).split(TOKEN_PLACEHOLDER).join(token)]));
		const urlsInArgs = server.args.filter((/** @type {string} */ arg) => /^https?:/.test(arg));
		if (urlsInArgs.length !== 1) throw new Error(`${file}: expected one URL in args`);
		return [
			{
				label: `${file}: ${server.command} ${server.args.join(' ')}`,
				authenticated: server.args.includes('--header'),
				transport: 'stdio',
				command: server.command,
				args: server.args.map((/** @type {string} */ arg) => (arg === urlsInArgs[0] ? realUrl(arg, urls) : arg)),
				env,
			},
		];
	}
	if (file.startsWith('claude-code')) {
		// Claude Code's .mcp.json: ${NAME} and ${NAME:-default} from the environment
		onlyKeys(json, ['mcpServers'], file);
		const server = theServer(json, 'mcpServers', file);
		onlyKeys(server, ['type', 'url', 'headers'], file);
		if (server.type !== 'http') throw new Error(`${file}: expected "type": "http"`);
		const environment = { [TOKEN_VARIABLE]: token };
		const expand = (/** @type {string} */ value) =>
			value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name, fallback) => environment[name] ?? fallback ?? whole);
		return [{ label: file, authenticated: server.headers !== undefined, transport: 'streamableHttp', url: realUrl(server.url, urls), headers: expandedHeaders(server.headers, expand, file) }];
	}
	if (file.startsWith('cursor')) {
		onlyKeys(json, ['mcpServers'], file);
		const server = theServer(json, 'mcpServers', file);
		onlyKeys(server, ['url', 'headers'], file);
		const environment = { [TOKEN_VARIABLE]: token };
		const expand = (/** @type {string} */ value) => value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => environment[name] ?? whole);
		return [{ label: file, authenticated: server.headers !== undefined, transport: 'streamableHttp', url: realUrl(server.url, urls), headers: expandedHeaders(server.headers, expand, file) }];
	}
	if (file.startsWith('vscode')) {
		onlyKeys(json, ['servers', 'inputs'], file);
		const server = theServer(json, 'servers', file);
		onlyKeys(server, ['type', 'url', 'headers'], file);
		if (server.type !== 'http') throw new Error(`${file}: expected "type": "http"`);
		const inputs = new Map((json.inputs ?? []).map((/** @type {any} */ input) => [input.id, input]));
		const expand = (/** @type {string} */ value) =>
			value.replace(/\$\{input:([^}]+)\}/g, (whole, id) => {
				const input = /** @type {any} */ (inputs.get(id));
				if (!input) return whole;
				if (input.type !== 'promptString' || input.password !== true) throw new Error(`${file}: input ${id} should be a promptString with "password": true`);
				return token;
			});
		return [{ label: file, authenticated: server.headers !== undefined, transport: 'streamableHttp', url: realUrl(server.url, urls), headers: expandedHeaders(server.headers, expand, file) }];
	}
	throw new Error(`${file}: no reader for this client`);
}

/** Every documented file, by client. */
const CLIENT_FILES = Object.freeze({
	'Claude Desktop (mcp-remote over stdio)': ['claude-desktop.json', 'claude-desktop-bearer.json'],
	'Claude Code': ['claude-code.sh', 'claude-code.mcp.json'],
	Cursor: ['cursor.mcp.json', 'cursor-bearer.mcp.json'],
	'VS Code': ['vscode.mcp.json', 'vscode-bearer.mcp.json'],
});

module.exports = { CLIENTS_DIR, CLIENT_FILES, DOC_URLS, TOKEN_PLACEHOLDER, TOKEN_VARIABLE, clientConnections, shellWords };
