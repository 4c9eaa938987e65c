import { buildApp } from './app';
import { loadConfig } from './platform/config';
import { shutDown } from './platform/plugins/server-lifecycle';

/** Entry point: `node dist/server.js` (or `tsx src/server.ts`). */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config });

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: new requests get 503, in-flight ones finish');
    shutDown(app, config.shutdownTimeoutMs).then(
      ({ drained }) => {
        if (!drained) app.log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown: cut off requests still open at the deadline');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error('API failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
