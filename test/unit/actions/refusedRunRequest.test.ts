/**
 * What a run request refused with 429 or 503 says, and what the README says about it, are one
 * wording: the README quotes the sentence the node writes (actions/shared/apiCalls.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REFUSED_RUN_REQUEST, refusedRunNote } from '../../../nodes/Nexthink/actions/shared/apiCalls';

const README = readFileSync(join(__dirname, '../../../README.md'), 'utf8').replace(/\s+/g, ' ');

it('the README quotes the sentence a refused run request says', () => {
	// a boolean, so a failure does not print the whole README
	expect(README.includes(REFUSED_RUN_REQUEST)).toBe(true);
});

it('the note says it was refused, most likely did not run, and where to check before running again', () => {
	const note = refusedRunNote('NQL remote_action.executions');
	expect(note).toMatch(/^Nexthink refused the request, so it most likely did not run; the node did not send it again\. /);
	expect(note).toMatch(/Before running it again, check that it did not run: NQL remote_action\.executions\.$/);
});
