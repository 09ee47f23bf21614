/**
 * The walls of nodes/Nexthink/ (docs/development.md, "Layout"): a node's folder is its own, so no
 * node folder imports another node's folder; what several nodes use lives in a layer below them
 * (nql/, results/, shared/, transport/), and those layers import no node folder. In the Actions
 * node, actions/shared/ imports no resource folder and no operation reaches into another resource.
 * Every network call of a node goes through an API module (its `api.ts`, or a layer's `…Api.ts`).
 * Read from the sources' imports, so a new import across a wall fails here with the file and the
 * import that crosses it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '../../nodes/Nexthink');
const NODE_FOLDERS = ['actions', 'enrichment', 'eventTrigger', 'export', 'trigger'];
const LAYERS = ['nql', 'results', 'shared', 'transport'];
const ACTION_RESOURCES = ['campaign', 'device', 'remoteAction', 'spark', 'workflow'];

interface Import {
	file: string;
	from: string[];
	to: string[];
	names: string[];
}

/** What the transport exports that sends a request. */
const NETWORK_CALLS = ['nexthinkRequest', 'fetchPresignedFile', 'readAnswerText'];
/**
 * The API modules: a node's or resource's `api.ts`, a layer's `…Api.ts`, the Actions API modules'
 * common part (`actions/shared/apiCalls.ts`), and the download of a results file from its pre-signed
 * URL (`nql/resultsFile.ts`: cloud storage, not the Nexthink API).
 */
const isApiModule = (file: string) => /(^|\/)api\.ts$|Api\.ts$/.test(file) || ['actions/shared/apiCalls.ts', 'nql/resultsFile.ts'].includes(file);

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative import of the package's sources, as folder paths under nodes/Nexthink/. */
function relativeImports(): Import[] {
	return sourceFiles(ROOT).flatMap((file) => {
		const text = readFileSync(file, 'utf8');
		return [...text.matchAll(/\bimport\s+(?:type\s+)?([^;]*?)\s+from\s+'(\.{1,2}\/[^']+)'/g)].map(([, clause, specifier]) => ({
			file: relative(ROOT, file).split(sep).join('/'),
			from: relative(ROOT, dirname(file)).split(sep),
			to: relative(ROOT, resolve(dirname(file), specifier)).split(sep),
			names: [...clause.matchAll(/\b(\w+)\b(?:\s+as\s+\w+)?/g)].map((match) => match[1]),
		}));
	});
}

const imports = relativeImports();
const show = (found: Import[]) => found.map(({ file, to }) => `${file} imports ${to.join('/')}`);

describe('layout of nodes/Nexthink', () => {
	it('reads the imports it checks', () => {
		// a regular expression that stopped matching would make every rule below pass
		expect(imports.length).toBeGreaterThan(300);
		expect(imports.some(({ from, to }) => from[0] === 'trigger' && to[0] === 'nql')).toBe(true);
	});

	it.each(NODE_FOLDERS)('no file of %s/ imports another node folder', (node) => {
		const crossing = imports.filter(({ from, to }) => from[0] === node && NODE_FOLDERS.includes(to[0]) && to[0] !== node);
		expect(show(crossing)).toEqual([]);
	});

	it.each(LAYERS)('the shared layer %s/ imports no node folder', (layer) => {
		const crossing = imports.filter(({ from, to }) => from[0] === layer && NODE_FOLDERS.includes(to[0]));
		expect(show(crossing)).toEqual([]);
	});

	it('actions/shared/ imports no resource folder', () => {
		const crossing = imports.filter(({ from, to }) => from[0] === 'actions' && from[1] === 'shared' && to[0] === 'actions' && ACTION_RESOURCES.includes(to[1]));
		expect(show(crossing)).toEqual([]);
	});

	it('no Actions resource imports another resource', () => {
		const crossing = imports.filter(
			({ from, to }) => from[0] === 'actions' && ACTION_RESOURCES.includes(from[1]) && to[0] === 'actions' && ACTION_RESOURCES.includes(to[1]) && to[1] !== from[1],
		);
		expect(show(crossing)).toEqual([]);
	});

	it('no operation file imports another resource or another operation', () => {
		const crossing = imports.filter(
			({ file, from, to }) =>
				file.endsWith('.operation.ts') &&
				((from[0] === 'actions' && to[0] === 'actions' && ACTION_RESOURCES.includes(to[1]) && to[1] !== from[1]) || to[to.length - 1].endsWith('.operation')),
		);
		expect(show(crossing)).toEqual([]);
	});

	it('every network call goes through an API module', () => {
		const calls = imports.filter(({ to, names }) => to[0] === 'transport' && names.some((name) => NETWORK_CALLS.includes(name)));
		// the rule reads what it checks: the API modules do import the calls
		expect(calls.map(({ file }) => file)).toEqual(expect.arrayContaining(['nql/exportApi.ts', 'enrichment/api.ts']));
		expect(show(calls.filter(({ file, from }) => from[0] !== 'transport' && !isApiModule(file)))).toEqual([]);
		// and nothing outside the transport sends through n8n's request helpers itself
		const direct = sourceFiles(ROOT).filter((file) => !relative(ROOT, file).startsWith(`transport${sep}`) && /helpers\s*\.\s*(httpRequest|request)\w*\s*\(/.test(readFileSync(file, 'utf8')));
		expect(direct.map((file) => relative(ROOT, file))).toEqual([]);
	});

	it('knows every folder of nodes/Nexthink', () => {
		const folders = readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'icons').map((entry) => entry.name);
		expect(folders.sort()).toEqual([...NODE_FOLDERS, ...LAYERS].sort());
		const resources = readdirSync(join(ROOT, 'actions'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'shared').map((entry) => entry.name);
		expect(resources.sort()).toEqual([...ACTION_RESOURCES].sort());
	});
});
