// setupFilesAfterEnv of both API projects. Every test starts real servers on a real database;
// beside the other suites on two cores, creating and migrating a PostgreSQL database alone can pass
// Jest's default 5 s. (Jest reads testTimeout from the root config only, not from a project's.)
jest.setTimeout(30_000);
