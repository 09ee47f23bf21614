/**
 * The MCP client set-ups docs/ai-agents.md shows are the files the end-to-end suite connects with
 * (docs/mcp-clients/, read by test/e2e/lib/mcpClientConfigs.js): each file is quoted right after
 * its link, character for character, and every file is one the suite reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const { CLIENTS_DIR, CLIENT_FILES, clientConnections } = require('../../e2e/lib/mcpClientConfigs');

const guide = fs.readFileSync(path.resolve(__dirname, '../../../docs/ai-agents.md'), 'utf8');
const files: string[] = fs.readdirSync(CLIENTS_DIR).sort();

/** The first fenced block after the file's link in the guide. */
function quotedAfterLink(file: string): string | undefined {
	const link = guide.indexOf(`](mcp-clients/${file})`);
	if (link < 0) return undefined;
	const block = /```[a-z]*\n([\s\S]*?)```/.exec(guide.slice(link));
	return block?.[1];
}

describe('MCP client set-ups in docs/ai-agents.md', () => {
	it.each(files)('%s is quoted as it is, right after its link', (file) => {
		expect(quotedAfterLink(file)).toBe(fs.readFileSync(path.join(CLIENTS_DIR, file), 'utf8'));
	});

	it('every file is one the end-to-end suite connects with, and each client has one with and one without a token', () => {
		expect(Object.values(CLIENT_FILES).flat().sort()).toEqual(files);
		const urls = { local: 'http://127.0.0.1:1/mcp/plain', remote: 'http://127.0.0.1:1/mcp/bearer' };
		for (const clientFiles of Object.values(CLIENT_FILES) as string[][]) {
			const connections = clientFiles.flatMap((file) => clientConnections(file, { urls, token: 'the-token' }));
			expect(new Set(connections.map((connection: { authenticated: boolean }) => connection.authenticated))).toEqual(new Set([false, true]));
		}
	});

	it("reads each client's variables the way that client expands them", () => {
		const urls = { local: 'http://127.0.0.1:1/mcp/plain', remote: 'http://127.0.0.1:1/mcp/bearer' };
		const authorization = (file: string) =>
			clientConnections(file, { urls, token: 'the-token' }).map((connection: { headers?: Record<string, string>; env?: Record<string, string> }) => connection.headers?.Authorization ?? connection.env?.AUTH_HEADER);
		for (const file of ['claude-desktop-bearer.json', 'claude-code.mcp.json', 'cursor-bearer.mcp.json', 'vscode-bearer.mcp.json']) {
			expect(authorization(file)).toEqual(['Bearer the-token']);
		}
		expect(authorization('claude-code.sh')).toEqual([undefined, 'Bearer the-token']);
		expect(clientConnections('cursor.mcp.json', { urls, token: 'x' })[0].url).toBe(urls.local);
		expect(clientConnections('vscode-bearer.mcp.json', { urls, token: 'x' })[0].url).toBe(urls.remote);
	});
});
