// @ts-check
'use strict';

/**
 * A stand-in for registry.npmjs.org that serves this package's packed tarball, for the queue-mode
 * case that installs the package with n8n's environment variables (`N8N_COMMUNITY_PACKAGES`,
 * `N8N_REINSTALL_MISSING_PACKAGES`).
 *
 * Why it is needed: n8n 2.x installs community packages with `npm pack <name>@<version>
 * --registry=https://registry.npmjs.org` and reads `https://registry.npmjs.org/<name>/<version>`
 * itself; pointing it at another registry (`N8N_COMMUNITY_PACKAGES_REGISTRY`) needs an n8n licence
 * (`CommunityPackagesService.getNpmRegistry`), and this package is not on registry.npmjs.org.
 * Both n8n and the npm it starts use the standard proxy variables, and npm inherits n8n's
 * environment, so n8n is left untouched: its processes get `HTTPS_PROXY` pointing here and
 * `NODE_EXTRA_CA_CERTS` with a certificate authority made for this run only.
 *
 * What it does: an HTTP proxy on 127.0.0.1 that accepts `CONNECT registry.npmjs.org:443` only
 * (any other host, and any plain-HTTP proxy request, gets 403 and is logged), ends that TLS
 * itself with a certificate for registry.npmjs.org signed by the throwaway authority, and answers
 * the packument `/<name>`, the version document `/<name>/<version>` and the tarball; anything
 * else gets 404. Nothing is forwarded anywhere. Each `listen(label)` is a separate proxy port, so
 * the log tells which n8n process asked for what.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REGISTRY_HOST = 'registry.npmjs.org';

/** @param {string[]} args @param {string} cwd */
function openssl(args, cwd) {
	const result = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
	if (result.error) throw new Error(`openssl is needed for the registry stand-in's certificate (apt-get install -y openssl): ${result.error.message}`);
	if (result.status !== 0) throw new Error(`openssl ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
}

/**
 * A certificate authority and a registry.npmjs.org certificate it signed, valid for two days.
 * @param {string} dir @returns {{ caFile: string, key: Buffer, cert: Buffer }}
 */
function makeCertificates(dir) {
	fs.mkdirSync(dir, { recursive: true });
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=n8n-nodes-nexthink e2e throwaway CA',
		'-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
	openssl(['req', ...ec, '-keyout', 'registry.key', '-out', 'registry.csr', '-subj', `/CN=${REGISTRY_HOST}`], dir);
	fs.writeFileSync(path.join(dir, 'registry.ext'), `basicConstraints=CA:FALSE\nsubjectAltName=DNS:${REGISTRY_HOST}\nextendedKeyUsage=serverAuth\n`);
	openssl(['x509', '-req', '-in', 'registry.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', `0x${crypto.randomBytes(8).toString('hex')}`,
		'-days', '2', '-extfile', 'registry.ext', '-out', 'registry.pem'], dir);
	return { caFile: path.join(dir, 'ca.pem'), key: fs.readFileSync(path.join(dir, 'registry.key')), cert: fs.readFileSync(path.join(dir, 'registry.pem')) };
}

/** The manifest inside a packed tarball. @param {string} tarball */
function manifestOf(tarball) {
	const result = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`tar could not read package.json from ${tarball}: ${result.stderr}`);
	return JSON.parse(result.stdout);
}

/**
 * @typedef {{ via: string, kind: 'served' | 'not-found' | 'refused', method: string, target: string, status: number }} StandInRequest
 */

/**
 * @param {{ dir: string, tarball: string }} options
 */
async function startRegistryStandIn(options) {
	const { caFile, key, cert } = makeCertificates(path.join(options.dir, 'certificates'));
	const bytes = fs.readFileSync(options.tarball);
	const manifest = manifestOf(options.tarball);
	const { name, version } = manifest;
	const integrity = `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`;
	const tarballPath = `/${name}/-/${name}-${version}.tgz`;
	const versionDocument = {
		...manifest,
		_id: `${name}@${version}`,
		dist: { tarball: `https://${REGISTRY_HOST}${tarballPath}`, integrity, shasum: crypto.createHash('sha1').update(bytes).digest('hex') },
	};
	const packument = { _id: name, name, 'dist-tags': { latest: version }, versions: { [version]: versionDocument } };

	/** @type {StandInRequest[]} */
	const requests = [];
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	/** @type {http.Server[]} */
	const servers = [];

	/** @param {string} via @returns {https.Server} */
	function registryFor(via) {
		return https.createServer({ key, cert }, (request, response) => {
			const target = decodeURIComponent(new URL(request.url ?? '/', `https://${REGISTRY_HOST}`).pathname);
			/** @type {[number, string, Buffer | string]} */
			let answer = [404, 'application/json', JSON.stringify({ error: 'Not found' })];
			if (request.method === 'GET' && target === `/${name}`) answer = [200, 'application/json', JSON.stringify(packument)];
			else if (request.method === 'GET' && (target === `/${name}/${version}` || target === `/${name}/latest`)) answer = [200, 'application/json', JSON.stringify(versionDocument)];
			else if (request.method === 'GET' && target === tarballPath) answer = [200, 'application/octet-stream', bytes];
			requests.push({ via, kind: answer[0] === 200 ? 'served' : 'not-found', method: request.method ?? '', target, status: answer[0] });
			response.writeHead(answer[0], { 'content-type': answer[1], 'content-length': Buffer.byteLength(answer[2]) });
			response.end(answer[2]);
		});
	}

	/**
	 * A proxy port for one client. @param {string} via  a label for the log
	 * @returns {Promise<string>} the proxy URL (`http://127.0.0.1:<port>`)
	 */
	async function listen(via) {
		const registry = registryFor(via);
		const proxy = http.createServer((request, response) => {
			// plain HTTP through the proxy: never forwarded
			requests.push({ via, kind: 'refused', method: request.method ?? '', target: request.url ?? '', status: 403 });
			response.writeHead(403, { 'content-type': 'text/plain' });
			response.end('the e2e registry stand-in forwards nothing\n');
		});
		proxy.on('connection', (socket) => {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
		});
		proxy.on('connect', (request, socket, head) => {
			if (request.url !== `${REGISTRY_HOST}:443`) {
				requests.push({ via, kind: 'refused', method: 'CONNECT', target: request.url ?? '', status: 403 });
				socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
				return;
			}
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length > 0) socket.unshift(head);
			registry.emit('connection', socket);
		});
		await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(undefined)));
		servers.push(proxy);
		const address = /** @type {import('node:net').AddressInfo} */ (proxy.address());
		return `http://127.0.0.1:${address.port}`;
	}

	return {
		name,
		version,
		integrity,
		tarballPath,
		caFile,
		requests,
		listen,
		/**
		 * What an n8n process needs to reach only this stand-in: the proxy for HTTP(S) except
		 * 127.0.0.1 (the Nexthink server, the task-runner broker), the throwaway authority, and an npm
		 * cache inside the test's folder (npm would otherwise write to the user's `~/.npm`). The
		 * authority goes to npm as `cafile` too: a `cafile` in a global or user npmrc (some machine
		 * images set one) replaces Node's certificates for npm, `NODE_EXTRA_CA_CERTS` included.
		 * @param {string} proxyUrl @param {string} npmCache
		 */
		environment(proxyUrl, npmCache) {
			return {
				HTTPS_PROXY: proxyUrl,
				HTTP_PROXY: proxyUrl,
				NO_PROXY: '127.0.0.1,localhost,::1',
				NODE_EXTRA_CA_CERTS: caFile,
				npm_config_cafile: caFile,
				npm_config_cache: npmCache,
				npm_config_update_notifier: 'false',
			};
		},
		async close() {
			// kept with the work folder (`--keep`, or when a test fails) for whoever reads a failure
			fs.writeFileSync(path.join(options.dir, 'requests.json'), JSON.stringify(requests, null, 2));
			for (const socket of sockets) socket.destroy();
			await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
		},
	};
}

module.exports = { startRegistryStandIn, REGISTRY_HOST };
