// setupFiles of the api-sqlite project: every test file gets its own temporary SQLite file.
process.env.TEST_DIALECT = 'sqlite';
