/**
 * How long a backup suite's tests and hooks may take, and how long a test waits for a backup the
 * site takes by itself. Backups seal and snapshot on threads at nice 19, which take only the CPU
 * everything else leaves: beside the container suites' image builds (nice 0, the API suites at
 * nice 5), sealing a fresh PostgreSQL cluster or starting one of its own took well over Jest's
 * 30 s. Hang guards, never timings: a test asserts nothing about how long a backup takes.
 */
export const BACKUP_SUITE_TIMEOUT_MS = 5 * 60_000;

/** For `eventually`: a backup the site takes on its own schedule, and its drill. */
export const BACKUP_WAIT_MS = 4 * 60_000;
