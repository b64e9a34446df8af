import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonLog } from '../../libs/server/src/config/json-log';
import { ServerConfig } from '../../libs/server/src/config/server-config';
import { RunningServer, startServer, StartOptions } from '../../apps/game-server/src/server';
import { createTestDatabase } from './database';

export const TEST_ADMIN_TOKEN = 'test-admin-token';
// readConfig lists this secret among the placeholders it refuses, because a test secret must never sign a real deploy's tokens.
export const TEST_TOKEN_SECRET = 'test-secret-0123456789abcdef-0123456789';

/** Starts a real server on a free port, over a fresh database of the run's PostgreSQL. */
export async function startTestServer(overrides: Partial<ServerConfig> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const config: ServerConfig = {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: await createTestDatabase(),
    dataDir: mkdtempSync(join(tmpdir(), 'game-test-data-')),
    adminToken: TEST_ADMIN_TOKEN,
    adminTokenGenerated: false,
    allowedOrigins: ['http://allowed.example'],
    tokenSecret: TEST_TOKEN_SECRET,
    poolMax: 10,
    mailboxDepth: 64,
    pipelineDepth: 8,
    commitLanes: 4,
    silenceMs: 3000,
    // main.ts sets the heap growth for its process. A server started in a test's process leaves jest's heap alone.
    heapGrowingPercent: 0,
    passivateAfterMs: 60_000,
    roomExpirySeconds: 300,
    commandTimeoutMs: 1000,
    logLevel: 'error',
    sendQueueBytes: 256 * 1024,
    sendQueueFrames: 1024,
    // This is a server started for tests. Specs open many rooms from 127.0.0.1, so the limits stay in
    // force but are generous. apps/game-server/test/limits.e2e-spec.ts sets them tight.
    allowTestSeeds: true,
    allowTestGames: true,
    openRatePerMinute: 100_000,
    openBurst: 100_000,
    trustedProxies: [],
    // The wire-profiles tests open a seat's socket in each profile, beside the socket that makes the seat present.
    socketsPerSeat: 8,
    maxLiveRooms: 10_000,
    joinsPerMinute: 100_000,
    deckWritesPerMinute: 100_000,
    lookupsPerMinute: 100_000,
    spectatorsPerMinute: 100_000,
    imageUploadsPerMinute: 100_000,
    addressTableEntries: 100_000,
    instanceOpensPerMinute: 1_000_000,
    instanceJoinsPerMinute: 1_000_000,
    instanceDeckWritesPerMinute: 1_000_000,
    instanceLookupsPerMinute: 1_000_000,
    instanceSpectatorsPerMinute: 1_000_000,
    instanceImageUploadsPerMinute: 1_000_000,
    spectatorsPerRoom: 1000,
    maxSockets: 100_000,
    // These are a real server's overload marks. admission.e2e-spec sets its own, low ones.
    overloadEventLoopDelayMs: 500,
    overloadCommitWaitMs: 500,
    overloadPoolWaitMs: 500,
    // Off: a server in the test's own process shares its event loop with the test's clients, which
    // may hold it for tens of ms. admission.e2e-spec proves the mark on a process of its own.
    overloadAnonymousEventLoopDelayMs: 0,
    ...overrides,
  };
  return startServer(config, {
    log: new JsonLog(config.logLevel, (line) => process.stderr.write(line + '\n')),
    build: { version: 'test', sha: 'test' },
    ...options,
  });
}

/**
 * Gives a describe block one server, started before its tests and stopped after them. `use`
 * receives the server, and it is where a spec keeps its own handles.
 */
export function withTestServer(use: (server: RunningServer) => void, overrides: Partial<ServerConfig> = {}): void {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(overrides);
    use(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
}
