/**
 * What integration test files share about their local Nexthink server (`test/server/`): Export wait
 * options that suit it, and its hooks: before each test the recorded requests and injected faults
 * are cleared, so a test sees only its own; after all tests the server is closed and n8n-core's
 * timer disposed, so jest can exit. Each file starts its server in its own `beforeAll`, with the
 * options and fixtures it needs.
 */
import { disposeHarness } from './harness';

/** Export wait options for the local server: the first status call comes at once instead of after the production 2 s. */
export const FAST_WAIT = { firstPollSeconds: 0.02, pollGrowthFactor: 1.5, maxPollIntervalSeconds: 0.1 };

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
