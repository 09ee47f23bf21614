/**
 * A throwaway self-signed certificate for 127.0.0.1, made at test time with the `openssl` command
 * (Node.js can make keys but not X.509 certificates). Test-only: it lives in a temp folder for the
 * run and is never committed. A machine without `openssl` fails the test that needs it, loudly.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface SelfSignedCertificate {
	key: string;
	cert: string;
}

export function makeSelfSignedCertificate(): SelfSignedCertificate {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-tls-test-'));
	const keyFile = path.join(folder, 'key.pem');
	const certFile = path.join(folder, 'cert.pem');
	try {
		// prettier-ignore
		execFileSync('openssl', [
			'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
			'-keyout', keyFile, '-out', certFile, '-days', '2',
			'-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
		], { stdio: 'pipe' });
		return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
	} catch (error) {
		throw new Error(`Could not make a self-signed test certificate with openssl (is it installed?): ${(error as Error).message}`);
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}
