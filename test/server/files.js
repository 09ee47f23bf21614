// @ts-check
'use strict';

const { PassThrough, Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const zlib = require('node:zlib');
const { spawn } = require('node:child_process');
const { sendStorageError } = require('./http');
const { csvChunks } = require('./csv');
const { exportRows } = require('./exports');
const { answerHeader, hasMoreThan } = require('./queries');

/**
 * `GET /files/{exportId}.csv[.gz|.zst]?expires=..&signature=..`: the object-storage side. No bearer
 * token; errors are XML documents like S3's. The CSV is generated row by row and streamed through the
 * compressor, so even a million-row export is never held in memory.
 *
 * @typedef {object} FileDeps
 * @property {Map<string, import('./exports').ExportRecord>} exports
 * @property {import('./signed-urls').UrlSigner} signer
 * @property {() => number} now
 * @property {FileOptions} options
 *
 * @typedef {object} FileOptions
 * @property {string} csvLineEnding
 * @property {'qualified' | 'short'} queryColumnNames  how the header names the columns (queries.js, answerHeader)
 * @property {'header' | 'no-header' | 'zero-bytes'} emptyResult  the file of an empty result: a header row alone,
 *   no text at all (compressed per the export: a valid gzip or zstd file of nothing), or zero bytes whatever the compression
 */

const CONTENT_TYPES = { NONE: 'text/csv', GZIP: 'application/gzip', ZSTD: 'application/zstd' };

/**
 * @param {import('./router').Context} ctx
 * @param {FileDeps} deps
 */
async function handleFileDownload(ctx, deps) {
	if (ctx.headers.authorization !== undefined) {
		sendStorageError(
			ctx.res,
			400,
			'InvalidArgument',
			'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
		);
		return;
	}
	const check = deps.signer.check(ctx.path, ctx.url.searchParams, deps.now());
	if (check === 'missing') {
		sendStorageError(ctx.res, 403, 'AccessDenied', 'Query-string authentication requires the expires and signature parameters');
		return;
	}
	if (check === 'bad-signature') {
		sendStorageError(ctx.res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
		return;
	}
	if (check === 'expired') {
		sendStorageError(ctx.res, 403, 'AccessDenied', 'Request has expired');
		return;
	}
	const fileName = ctx.params[0];
	const record = deps.exports.get(fileName.split('.')[0]);
	if (!record || record.fileName !== fileName) {
		sendStorageError(ctx.res, 404, 'NoSuchKey', 'The specified key does not exist.');
		return;
	}
	ctx.res.writeHead(200, { 'content-type': CONTENT_TYPES[record.compression] });
	await streamFile(record, deps.options, ctx.res);
}

/**
 * @param {import('./exports').ExportRecord} record
 * @param {FileOptions} options
 * @param {import('node:http').ServerResponse} res
 */
async function streamFile(record, options, res) {
	if (record.query.cacheFiles) {
		await sendCachedFile(record, options, res);
		return;
	}
	const empty = options.emptyResult !== 'header' && !hasMoreThan(exportRows(record), 0);
	if (empty && options.emptyResult === 'zero-bytes') {
		res.end();
		return;
	}
	const header = answerHeader(record.query.header, options.queryColumnNames);
	const source = Readable.from(empty ? [] : csvChunks(header, exportRows(record), options.csvLineEnding));
	try {
		// Fastest level: the server should not be what limits a download benchmark.
		if (record.compression === 'GZIP') await pipeline(source, zlib.createGzip({ level: zlib.constants.Z_BEST_SPEED }), res);
		else if (record.compression === 'ZSTD') await pipeThroughZstd(source, res);
		else await pipeline(source, res);
	} catch {
		// The client went away or a fault cut the connection: nothing left to answer.
		res.destroy();
	}
}

/** Files of `cacheFiles` queries, by query definition, then compression and parameters. */
const fileCache = new WeakMap();

/**
 * Serves a `cacheFiles` query's file from memory, building it on first use by streaming it into a buffer.
 * @param {import('./exports').ExportRecord} record
 * @param {FileOptions} options
 * @param {import('node:http').ServerResponse} res
 */
async function sendCachedFile(record, options, res) {
	/** @type {Map<string, Promise<Buffer>>} */
	const files = fileCache.get(record.query) ?? new Map();
	fileCache.set(record.query, files);
	const key = `${record.compression} ${JSON.stringify(record.parameters)} ${options.csvLineEnding} ${options.queryColumnNames} ${options.emptyResult}`;
	let file = files.get(key);
	if (!file) {
		file = collect(async (sink) => await streamFile({ ...record, query: { ...record.query, cacheFiles: false } }, options, sink));
		files.set(key, file);
	}
	res.end(await file);
}

/**
 * Runs a writer against an in-memory sink that looks enough like a response for `streamFile`.
 * @param {(sink: any) => Promise<void>} write
 * @returns {Promise<Buffer>}
 */
async function collect(write) {
	const sink = new PassThrough();
	/** @type {Buffer[]} */
	const chunks = [];
	sink.on('data', (chunk) => chunks.push(chunk));
	const ended = new Promise((resolve, reject) => {
		sink.once('end', resolve);
		sink.once('error', reject);
	});
	await write(sink);
	await ended;
	return Buffer.concat(chunks);
}

/**
 * Node 20 has no zstd in zlib, so the `zstd` command line tool compresses (with its default frame
 * checksum, which lets clients detect corruption).
 * @param {Readable} source
 * @param {import('node:http').ServerResponse} res
 */
async function pipeThroughZstd(source, res) {
	const child = spawn('zstd', ['-q', '-c'], { stdio: ['pipe', 'pipe', 'ignore'] });
	const exited = new Promise((resolve) => child.once('close', resolve));
	try {
		await Promise.all([pipeline(source, child.stdin), pipeline(child.stdout, res)]);
	} finally {
		if (child.exitCode === null) child.kill();
		await exited;
	}
}

module.exports = { handleFileDownload };
