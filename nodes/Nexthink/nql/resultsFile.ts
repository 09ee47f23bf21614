/**
 * Downloads an export's results file into rows and/or binary data, streaming (docs/decisions.md,
 * "Output File and memory"). Contract: the pre-signed URL is fetched without credentials; if it
 * expired (403) or the connection broke, `refreshUrl` (one status call: followExport.ts) fetches a
 * fresh one and the download is tried once more. A malformed or truncated file is an error, never a
 * silently shorter result; a cancelled execution is reported as cancelled.
 */
import type { IBinaryData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { detectCompression, type Compression } from '../results/decompress';
import { ResultLimitError, type ResultLimits } from '../results/limits';
import { readCsvRows, type CsvRow } from '../results/readCsvRows';
import { cancelSignalOf, fetchPresignedFile, isInterruptedDownload, keepMessage, throwIfCancelled, tlsCertificateHint, type NexthinkContext } from '../transport';

export interface DownloadOptions {
	declaredCompression: Compression;
	parseRows: boolean;
	keepFile: boolean;
	convertTypes: boolean;
	/** 0 = all rows. */
	maxRows: number;
	timeoutMs: number;
	itemIndex: number;
	limits: ResultLimits;
	/**
	 * Stores the kept file as n8n binary data: `data` is a Buffer or a Node Readable. Called inside
	 * the download's retry scope, so a download that breaks while it is stored is retried.
	 */
	storeFile?: (data: Buffer | NodeReadable, compression: Compression) => Promise<IBinaryData>;
}

/** A Node `Readable` built without importing `node:stream` (see readableClassOf). */
export type NodeReadable = { readonly pipe: unknown };

export interface DownloadedResults {
	header: string[];
	rows: CsvRow[];
	/** True when `maxRows` stopped the output before the end of the file. */
	moreRowsAvailable: boolean;
	/** The file as downloaded (still compressed), stored as binary data, when `keepFile` was set. */
	file?: { binary: IBinaryData };
}

/**
 * `refreshUrl` fetches a fresh URL for the export; `failure` says what happened to the previous one,
 * e.g. "was refused (HTTP 403)", and `hint` what to do about it (a TLS certificate), for an error
 * message when no fresh URL can be had.
 */
export async function downloadResults(
	ctx: NexthinkContext,
	firstUrl: string,
	refreshUrl: (failure: string, hint?: string) => Promise<string>,
	options: DownloadOptions,
): Promise<DownloadedResults> {
	const signal = cancelSignalOf(ctx);
	let url = firstUrl;
	for (let attempt = 1; ; attempt++) {
		const mayRetry = attempt === 1;
		const fetched = await fetchPresignedFile(ctx, url, options.timeoutMs);
		throwIfCancelled(ctx, signal, options.itemIndex);
		if (fetched.kind === 'network') {
			if (mayRetry) {
				url = await refreshUrl(`could not be fetched (${fetched.code ?? 'connection failed'})`, tlsCertificateHint(fetched.code));
				continue;
			}
			const message = `Could not download the results file (${fetched.code ?? 'connection failed'})`;
			const error = new NodeApiError(
				ctx.getNode(),
				{ message: `Download failed: ${fetched.code ?? 'connection failed'}` },
				{
					message,
					description:
						tlsCertificateHint(fetched.code) ??
						'The connection to the file storage failed. Check the network path to Nexthink\'s storage, then run the node again.',
					itemIndex: options.itemIndex,
				},
			);
			throw keepMessage(error, message);
		}
		if (fetched.kind === 'refused') {
			if (fetched.statusCode === 403 && mayRetry) {
				url = await refreshUrl('was refused (HTTP 403): it has probably expired');
				continue;
			}
			throw refusedDownloadError(ctx, fetched.statusCode, fetched.bodyText, options.itemIndex);
		}
		try {
			return await consumeFile(fetched.body, options);
		} catch (error) {
			throwIfCancelled(ctx, signal, options.itemIndex);
			if (isInterruptedDownload(error)) {
				if (mayRetry) {
					url = await refreshUrl('broke off before the end of the file');
					continue;
				}
				throw new NodeApiError(
					ctx.getNode(),
					{ message: 'Download interrupted' },
					{
						message: 'The download of the results file broke off before the end',
						description: 'The connection closed early. Run the node again; for a results URL that may have expired, use Download Results by export ID.',
						itemIndex: options.itemIndex,
					},
				);
			}
			if (error instanceof ResultLimitError) throw resultLimitError(ctx, error, options.itemIndex);
			if (error instanceof FileStoreError) {
				throw new NodeOperationError(ctx.getNode(), `The results file could not be stored as binary data: ${error.message}`, {
					itemIndex: options.itemIndex,
					description:
						'n8n could not keep the file. In n8n\'s in-memory binary data mode (the default of n8n 1.x) files over about 512 MB cannot be kept: set N8N_DEFAULT_BINARY_DATA_MODE=filesystem, or use Output: Rows with Max Rows.',
				});
			}
			throw new NodeOperationError(ctx.getNode(), `The results file could not be read: ${(error as Error).message}`, {
				itemIndex: options.itemIndex,
				description: 'The file is damaged or not the CSV Nexthink exports. No rows were output for it.',
			});
		}
	}
}

/** Where a user raises the limits of a results file or an execute answer: the messages name the option. */
export const WHERE_LIMITS_ARE = 'In the Nexthink Export node these settings are under Advanced Options; the Nexthink Trigger uses the defaults.';

/** A file past one of the limits: the message names the limit, its value and the option that raises it. */
export function resultLimitError(ctx: NexthinkContext, error: ResultLimitError, itemIndex: number | undefined): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `The results file was not read: ${error.message}`, {
		itemIndex,
		description: `The limits protect n8n from files that would exhaust its memory (a small compressed file can expand to gigabytes). No rows were output for this file. ${WHERE_LIMITS_ARE}`,
	});
}

function refusedDownloadError(ctx: NexthinkContext, statusCode: number, bodyText: string, itemIndex: number): NodeApiError {
	const expired = statusCode === 403;
	return new NodeApiError(
		ctx.getNode(),
		{ httpCode: String(statusCode), message: storageMessage(bodyText) },
		{
			message: expired
				? 'The results file URL was refused (HTTP 403): it has probably expired'
				: `The results file could not be downloaded (HTTP ${statusCode})`,
			description: expired
				? 'Results URLs are valid for 15 minutes. Use Download Results with the export ID, which fetches a fresh URL.'
				: storageMessage(bodyText),
			httpCode: String(statusCode),
			itemIndex,
		},
	);
}

/** Object storage answers with XML like `<Error><Code>..</Code><Message>..</Message></Error>`. */
function storageMessage(bodyText: string): string {
	const message = /<Message>([^<]*)<\/Message>/.exec(bodyText)?.[1];
	return (message ?? bodyText).trim().slice(0, 300);
}

async function consumeFile(body: AsyncIterable<Uint8Array>, options: DownloadOptions): Promise<DownloadedResults> {
	if (options.keepFile && !options.parseRows) {
		const streamed = await streamFile(body, options);
		if (streamed !== undefined) return { header: [], rows: [], moreRowsAvailable: false, file: streamed };
	}
	const kept: Uint8Array[] = [];
	const keeper = options.keepFile ? keepingChunks(body, kept) : undefined;
	let parsed: DownloadedResults = { header: [], rows: [], moreRowsAvailable: false };
	let complete = false;
	try {
		if (options.parseRows) {
			// Parsing stops at Max Rows also when the file is kept: the keeper then reads the rest of
			// the download without parsing it.
			const result = await readCsvRows(keeper?.chunks ?? body, {
				compression: options.declaredCompression,
				convertTypes: options.convertTypes,
				maxRows: options.maxRows > 0 ? options.maxRows : undefined,
				limits: options.limits,
			});
			parsed = { header: result.header, rows: result.rows, moreRowsAvailable: result.moreRowsAvailable };
		}
		await keeper?.readToEnd();
		complete = true;
	} finally {
		// a failed read must not leave the download open
		if (!complete) await keeper?.close();
	}
	if (!options.keepFile || options.storeFile === undefined) return parsed;
	const data = Buffer.concat(kept);
	const compression = detectCompression(data.subarray(0, 4)) ?? 'NONE';
	return { ...parsed, file: { binary: await storeKept(options.storeFile, data, compression) } };
}

/**
 * Hands the download to `storeFile` as a stream, after reading just enough of it to name the file by
 * its magic bytes. Undefined (nothing read) when no Readable can be built from the body.
 */
async function streamFile(body: AsyncIterable<Uint8Array>, options: DownloadOptions): Promise<DownloadedResults['file']> {
	const readableClass = readableClassOf(body);
	if (readableClass === undefined || options.storeFile === undefined) return undefined;
	const iterator = body[Symbol.asyncIterator]();
	let stored = false;
	try {
		const head: Uint8Array[] = [];
		let headLength = 0;
		while (headLength < 4) {
			const step = await iterator.next();
			if (step.done === true) break;
			head.push(step.value);
			headLength += step.value.length;
		}
		const first = Buffer.concat(head);
		const compression = detectCompression(first.subarray(0, 4)) ?? 'NONE';
		const stream = readableClass.from(continued(first, iterator), { objectMode: false });
		const binary = await storeKept(options.storeFile, stream, compression);
		stored = true;
		return { binary };
	} finally {
		if (!stored) await iterator.return?.();
	}
}

async function* continued(first: Uint8Array, iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
	if (first.length > 0) yield first;
	for (;;) {
		const step = await iterator.next();
		if (step.done === true) return;
		yield step.value;
	}
}

/** n8n failed to store the kept file (not a broken download, which is retried). */
class FileStoreError extends Error {}

async function storeKept(
	storeFile: NonNullable<DownloadOptions['storeFile']>,
	data: Buffer | NodeReadable,
	compression: Compression,
): Promise<IBinaryData> {
	let failure: unknown;
	try {
		return await storeFile(data, compression);
	} catch (error) {
		failure = error;
	}
	if (isInterruptedDownload(failure)) throw failure;
	throw new FileStoreError((failure as Error)?.message ?? String(failure), { cause: failure });
}

interface ReadableClass {
	from(chunks: AsyncIterable<Uint8Array>, options: { objectMode: boolean }): NodeReadable;
}

/** Node's `Readable` class, found through the download body's own class chain (`nodes/` may not import `node:stream`). */
function readableClassOf(body: unknown): ReadableClass | undefined {
	let current: unknown = (body as { constructor?: unknown } | null)?.constructor;
	for (let depth = 0; depth < 8 && typeof current === 'function'; depth++) {
		const candidate = current as { name?: unknown; from?: unknown };
		if (candidate.name === 'Readable' && typeof candidate.from === 'function') return candidate as unknown as ReadableClass;
		current = Object.getPrototypeOf(current);
	}
	return undefined;
}

/**
 * The download's chunks for the parser, each also kept for the binary file, in the order the download
 * delivers them. The parser stopping early (Max Rows) does not close the download: `readToEnd` keeps the rest.
 */
function keepingChunks(body: AsyncIterable<Uint8Array>, kept: Uint8Array[]) {
	const iterator = body[Symbol.asyncIterator]();
	const next = async (): Promise<IteratorResult<Uint8Array>> => {
		const step = await iterator.next();
		if (step.done !== true) kept.push(step.value);
		return step;
	};
	// the parser's `return` leaves the download open: the rest of it is still wanted
	const chunks: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next, return: async () => ({ done: true, value: undefined }) }) };
	const readToEnd = async () => {
		let step = await next();
		while (step.done !== true) step = await next();
	};
	return { chunks, readToEnd, close: async () => await iterator.return?.() };
}
