import type { RunningPostgres } from '../apps/game-server/src/embedded/postgres-cluster';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __TEST_PG__?: RunningPostgres }).__TEST_PG__?.stop();
}
