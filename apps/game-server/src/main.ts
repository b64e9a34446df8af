import 'reflect-metadata';
import { GameMetrics } from '@app/observability';
import { announceAdminToken, JsonLog, lanUrls, ProcessFaults, readConfig, setHeapGrowth, startBanner } from '@app/server';
import { startServer } from './server';

async function main(): Promise<void> {
  const config = readConfig();
  setHeapGrowth(config.heapGrowingPercent);
  const log = new JsonLog(config.logLevel);
  // A rejection nobody handled is logged and counted, and it ends nothing. An uncaught exception
  // ends the process (see ProcessFaults).
  const faults = new ProcessFaults(log);
  faults.install();
  // This comes before the database opens, so a start that fails later still says where the admin token is.
  announceAdminToken(config, log);
  const server = await startServer(config, { log });
  faults.countWith(server.app.get(GameMetrics));
  process.stdout.write(startBanner(server.port, lanUrls(server.port), server.operatorPort));
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1); // A second Ctrl-C does not wait.
    log.info('shutdown requested', { signal });
    server.stop().then(
      () => process.exit(0),
      (err) => {
        log.error('shutdown failed', { error: String(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`game-server failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
