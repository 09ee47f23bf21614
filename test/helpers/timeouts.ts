/**
 * Timeouts for the tests that do real work or really wait.
 *
 * Jest's default of 5 s suits tests that do neither. The tests that use these take up to a few
 * seconds on an idle machine and must not fail because the machine is busy (a CI runner, a laptop
 * building something else), so each declares what it waits for. The values bound a hang, not a
 * speed: no test asserts how fast anything is (speed is measured by the benchmarks, see
 * docs/benchmarks.md).
 */

/** The test compresses (with the zstd or gzip tools), decodes, generates or parses megabytes. */
export const DATA_WORK_TIMEOUT_MS = 120_000;

/** The test waits out real retry back-offs, `retry-after` delays or a node's wait schedule. */
export const REAL_WAITS_TIMEOUT_MS = 60_000;

/** The test runs a node a few times in process, each a few HTTP requests on loopback. */
export const FEW_N8N_RUNS_TIMEOUT_MS = 20_000;
