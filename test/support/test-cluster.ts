import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { ClusterScript } from '@app/bot-kit';
import { requireBuiltServer } from './server-process';

const REPO = resolve(__dirname, '../..');
// The cluster script inherits only this, so the test run's own settings do not reach the instances.
const BARE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
// Heartbeats come every second, so that a test sees a lease lapse, a failover or a return within seconds.
const TEST_ENV = { NODE_ENV: 'test', INSTANCE_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'info' };

/**
 * Starts `npm run cluster` the way the tests use it: `instances` built servers behind HAProxy, on
 * the script's own embedded PostgreSQL (or on `options.databaseUrl`), with `env` applied over the
 * test settings.
 */
export function startTestCluster(
  instances: number,
  env: Readonly<Record<string, string>> = {},
  options?: { readonly databaseUrl?: string },
): Promise<ClusterScript> {
  requireBuiltServer();
  return ClusterScript.start(REPO, instances, { ...TEST_ENV, ...env }, () => undefined, BARE_ENV, options);
}
