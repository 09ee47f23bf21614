/**
 * The hooks every integration test file gives its local Nexthink server (`test/server/`): before each
 * test the recorded requests and injected faults are cleared, so a test sees only its own; after all
 * tests the server is closed and n8n-core's timer disposed, so jest can exit. Each file starts its
 * server in its own `beforeAll`, with the options and fixtures it needs.
 */
import { disposeHarness } from './harness';

export function localServerHooks(server: () => { clearRequests(): void; clearFaults(): void; close(): Promise<void> }): void {
	beforeEach(() => {
		server().clearRequests();
		server().clearFaults();
	});
	afterAll(async () => {
		await server().close();
		disposeHarness();
	});
}
