import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from './config.error';
import { readConfig } from './server-config';
import { LOG_LEVELS, SERVER_ENV, ServerEnvName } from './server-env.schema';

describe(readConfig.name, () => {
  const strong = 'x'.repeat(16) + 'QpR7s9Tn2Vw4Yz6B';
  const strongToo = 'a'.repeat(16) + 'Kd83Jf92Lm47Nb61';

  function dataDir(): string {
    return mkdtempSync(join(tmpdir(), 'server-config-'));
  }

  describe('secrets from the environment', () => {
    it.each(['TOKEN_SECRET', 'ADMIN_TOKEN'])('refuses a %s shorter than 32 characters, naming it, and writes nothing', (name) => {
      const dir = dataDir();
      const env = { DATA_DIR: dir, TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, [name]: 'x'.repeat(31) };
      expect(() => readConfig(env)).toThrow(new RegExp(`^  ${name} is 31 characters; it must be at least 32`, 'm'));
      expect(readdirSync(dir)).toEqual([]);
    });

    // These are the values that docker-compose.yml shipped as fallbacks, and the ones the tests use,
    // in upper, lower or mixed case.
    it.each([
      ['TOKEN_SECRET', 'change-me-to-a-long-random-secret'],
      ['TOKEN_SECRET', 'CHANGE-ME-TO-A-LONG-RANDOM-SECRET'],
      ['TOKEN_SECRET', 'test-secret-0123456789abcdef-0123456789'],
      ['ADMIN_TOKEN', 'change-me'],
      ['ADMIN_TOKEN', 'Change-Me-please-with-more-than-32-characters'],
    ])('refuses %s=%s as a placeholder published in this repository', (name, value) => {
      const dir = dataDir();
      expect(() => readConfig({ DATA_DIR: dir, TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, [name]: value })).toThrow(
        new RegExp(`^  ${name} is a placeholder published in this repository`, 'm'),
      );
      expect(readdirSync(dir)).toEqual([]);
    });

    it('uses strong ones as given and keeps nothing in DATA_DIR', () => {
      const dir = dataDir();
      const config = readConfig({ DATA_DIR: dir, TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo });
      expect(config).toMatchObject({ tokenSecret: strong, adminToken: strongToo, adminTokenGenerated: false, adminTokenFile: undefined });
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  describe('secrets kept in DATA_DIR', () => {
    it('generates both on the first start, in files only the owner can read', () => {
      const dir = dataDir();
      const config = readConfig({ DATA_DIR: dir });
      expect(config.adminTokenGenerated).toBe(true);
      expect(config.adminTokenFile).toBe(join(dir, 'admin-token'));
      expect(readdirSync(dir).sort()).toEqual(['admin-token', 'token-secret']);
      for (const [file, value] of [
        ['admin-token', config.adminToken],
        ['token-secret', config.tokenSecret],
      ]) {
        expect(readFileSync(join(dir, file), 'utf8')).toBe(value + '\n');
        expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
        expect(value.length).toBeGreaterThanOrEqual(32);
      }
      expect(config.adminToken).not.toBe(config.tokenSecret);
    });

    it('keeps the same ones across a restart, and says the admin token was not generated this time', () => {
      const dir = dataDir();
      const first = readConfig({ DATA_DIR: dir });
      const second = readConfig({ DATA_DIR: dir });
      expect(second).toMatchObject({
        adminToken: first.adminToken,
        tokenSecret: first.tokenSecret,
        adminTokenGenerated: false,
        adminTokenFile: join(dir, 'admin-token'),
      });
    });

    it('treats an empty variable (compose passing an unset one through) as unset', () => {
      const dir = dataDir();
      const config = readConfig({ DATA_DIR: dir, TOKEN_SECRET: '', ADMIN_TOKEN: '' });
      expect(config.adminTokenGenerated).toBe(true);
      expect(existsSync(join(dir, 'token-secret'))).toBe(true);
    });

    it('refuses a kept file that was edited to a weak value, naming the file', () => {
      const dir = dataDir();
      writeFileSync(join(dir, 'admin-token'), 'change-me\n');
      expect(() => readConfig({ DATA_DIR: dir, TOKEN_SECRET: strong })).toThrow(`${join(dir, 'admin-token')} is a placeholder`);
      writeFileSync(join(dir, 'token-secret'), 'short\n');
      expect(() => readConfig({ DATA_DIR: dir, ADMIN_TOKEN: strongToo })).toThrow(`${join(dir, 'token-secret')} is 5 characters`);
    });
  });

  it('refuses a port that is not a whole number before writing anything', () => {
    const dir = dataDir();
    expect(() => readConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow("PORT='eighty': expected a whole number from 0 to 65535");
    expect(readdirSync(dir)).toEqual([]);
  });

  describe('the instance among several', () => {
    it('takes INSTANCE_NAME, INSTANCE_URL and the heartbeat as given', () => {
      const config = readConfig({
        DATA_DIR: dataDir(),
        TOKEN_SECRET: strong,
        ADMIN_TOKEN: strongToo,
        INSTANCE_NAME: 'game-server-1',
        INSTANCE_URL: 'http://game-server-1:3000',
        INSTANCE_HEARTBEAT_SECONDS: '2',
      });
      expect(config).toMatchObject({ instanceName: 'game-server-1', instanceUrl: 'http://game-server-1:3000', heartbeatMs: 2000 });
    });

    it('leaves the name and URL to the server (hostname and port) when unset or empty, and beats every 5 s', () => {
      const config = readConfig({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, INSTANCE_NAME: '' });
      expect(config).toMatchObject({ instanceName: undefined, instanceUrl: undefined, heartbeatMs: 2000, leaseMs: 6000 });
    });

    it('refuses a lease shorter than two heartbeats: it would run out between renewals', () => {
      expect(() =>
        readConfig({
          DATA_DIR: dataDir(),
          TOKEN_SECRET: strong,
          ADMIN_TOKEN: strongToo,
          INSTANCE_HEARTBEAT_SECONDS: '5',
          LEASE_SECONDS: '6',
        }),
      ).toThrow(
        "LEASE_SECONDS='6': shorter than two heartbeats (INSTANCE_HEARTBEAT_SECONDS=5): a lease would run out between two renewals; expected a whole number from 1 to 86400, at least twice INSTANCE_HEARTBEAT_SECONDS",
      );
      // With the heartbeat off (0), there is no renewal for the lease to outlast.
      expect(
        readConfig({
          DATA_DIR: dataDir(),
          TOKEN_SECRET: strong,
          ADMIN_TOKEN: strongToo,
          INSTANCE_HEARTBEAT_SECONDS: '0',
          LEASE_SECONDS: '1',
        }),
      ).toMatchObject({ heartbeatMs: 0, leaseMs: 1000 });
    });

    it('keeps results and finished games 30 days and prunes every 5 minutes unless told, and refuses finished games kept shorter than their results link', () => {
      const base = { DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo };
      expect(readConfig(base)).toMatchObject({
        resultsKeptDays: 30,
        finishedGamesKeptDays: 30,
        retentionSweepMs: 300_000,
        retentionBatchRows: 1000,
      });
      expect(() => readConfig({ ...base, RESULTS_KEPT_DAYS: '60' })).toThrow(
        "FINISHED_GAMES_KEPT_DAYS='': 30 days (30 when unset) is shorter than the results link's life (RESULTS_KEPT_DAYS=60): set it to at least that, or 0 to keep them for ever",
      );
      // Operators may keep finished games longer, or for ever (0), for the console and the leaderboard.
      expect(readConfig({ ...base, RESULTS_KEPT_DAYS: '60', FINISHED_GAMES_KEPT_DAYS: '365' })).toMatchObject({
        resultsKeptDays: 60,
        finishedGamesKeptDays: 365,
      });
      expect(readConfig({ ...base, RESULTS_KEPT_DAYS: '60', FINISHED_GAMES_KEPT_DAYS: '0' })).toMatchObject({ finishedGamesKeptDays: 0 });
      expect(readConfig({ ...base, RETENTION_SWEEP_SECONDS: '0' })).toMatchObject({ retentionSweepMs: 0 });
    });

    it.each(['has space', '-leading-dash', 'x'.repeat(64), 'name/with/slash', 'ünïcode'])(
      'refuses INSTANCE_NAME %p before writing anything',
      (name) => {
        const dir = dataDir();
        expect(() => readConfig({ DATA_DIR: dir, INSTANCE_NAME: name })).toThrow(`INSTANCE_NAME='${name}': expected 1 to 63 letters`);
        expect(readdirSync(dir)).toEqual([]);
      },
    );
  });
  describe('the limits of a public service', () => {
    const base = () => ({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo });

    it('has defaults that bound one address, one seat and one instance, and take no seed', () => {
      expect(readConfig(base())).toMatchObject({
        openRatePerMinute: 30,
        openBurst: 30,
        trustedProxies: [],
        socketsPerSeat: 3,
        maxLiveRooms: 5000,
        allowTestSeeds: false,
      });
    });

    it('takes each as given, TRUSTED_PROXIES as a list of addresses, CIDRs and keywords', () => {
      const config = readConfig({
        ...base(),
        OPEN_RATE_PER_MINUTE: '6',
        OPEN_BURST: '12',
        TRUSTED_PROXIES: ' loopback, 10.0.0.0/8 ,192.168.1.7, fd00::/8,uniquelocal ',
        SOCKETS_PER_SEAT: '2',
        MAX_LIVE_ROOMS: '100',
        ALLOW_TEST_SEEDS: '1',
      });
      expect(config).toMatchObject({
        openRatePerMinute: 6,
        openBurst: 12,
        trustedProxies: ['loopback', '10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'uniquelocal'],
        socketsPerSeat: 2,
        maxLiveRooms: 100,
        allowTestSeeds: true,
      });
    });

    it('turns the open rate and the live-room cap off with 0', () => {
      expect(readConfig({ ...base(), OPEN_RATE_PER_MINUTE: '0', MAX_LIVE_ROOMS: '0', ALLOW_TEST_SEEDS: '0' })).toMatchObject({
        openRatePerMinute: 0,
        maxLiveRooms: 0,
        allowTestSeeds: false,
      });
    });

    it.each([
      [{ OPEN_BURST: '0' }, "OPEN_BURST='0': expected a whole number from 1 to 100000"],
      [{ SOCKETS_PER_SEAT: '0' }, "SOCKETS_PER_SEAT='0': expected a whole number from 1 to 100"],
      [{ OPEN_RATE_PER_MINUTE: '2.5' }, "OPEN_RATE_PER_MINUTE='2.5': expected a whole number from 0 to 100000"],
      [{ MAX_LIVE_ROOMS: '-1' }, "MAX_LIVE_ROOMS='-1': expected a whole number from 0 to 1000000"],
      [{ ALLOW_TEST_SEEDS: 'yes' }, "ALLOW_TEST_SEEDS='yes': expected 1 or 0"],
      [
        { TRUSTED_PROXIES: 'loopback,haproxy' },
        "TRUSTED_PROXIES='loopback,haproxy': 'haproxy' is not an IP address, a CIDR or a keyword; expected comma-separated",
      ],
      [{ TRUSTED_PROXIES: '10.0.0.0/33' }, "TRUSTED_PROXIES='10.0.0.0/33': '10.0.0.0/33' is not an IP address"],
      [{ TRUSTED_PROXIES: '10.0.0.0/8/8' }, "TRUSTED_PROXIES='10.0.0.0/8/8': '10.0.0.0/8/8' is not an IP address"],
      [{ TRUSTED_PROXIES: '::1/129' }, "TRUSTED_PROXIES='::1/129': '::1/129' is not an IP address"],
    ])('refuses %j before writing anything', (env, message) => {
      const dir = dataDir();
      expect(() => readConfig({ DATA_DIR: dir, ...env })).toThrow(message);
      expect(readdirSync(dir)).toEqual([]);
    });
  });
  describe('the schema of the environment', () => {
    const base = () => ({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo });
    /** Returns the ConfigError that readConfig throws for `env`, after checking that it wrote nothing. */
    function refusal(env: Record<string, string>): ConfigError {
      const dir = dataDir();
      try {
        readConfig({ DATA_DIR: dir, ...env });
      } catch (err) {
        expect(readdirSync(dir)).toEqual([]);
        expect(err).toBeInstanceOf(ConfigError);
        return err as ConfigError;
      }
      throw new Error(`readConfig accepted ${JSON.stringify(env)}`);
    }

    it('keeps the defaults of every variable when the environment has none, or has them empty', () => {
      const defaults = {
        port: 3000,
        host: '0.0.0.0',
        databaseUrl: undefined,
        allowedOrigins: [],
        poolMax: 10,
        mailboxDepth: 64,
        pipelineDepth: 8,
        commitLanes: 16,
        passivateAfterMs: 60_000,
        roomExpirySeconds: 300,
        commandTimeoutMs: 1000,
        sendQueueBytes: 256 * 1024,
        sendQueueFrames: 1024,
        socketPingIdleMs: 20_000,
        socketPongTimeoutMs: 30_000,
        instanceName: undefined,
        instanceUrl: undefined,
        heartbeatMs: 2000,
        leaseMs: 6000,
        openRatePerMinute: 30,
        openBurst: 30,
        trustedProxies: [],
        socketsPerSeat: 3,
        maxLiveRooms: 5000,
        allowTestSeeds: false,
        logLevel: 'info',
      };
      expect(readConfig(base())).toMatchObject(defaults);
      const empty = Object.fromEntries(
        Object.keys(SERVER_ENV)
          .filter((n) => !['DATA_DIR', 'TOKEN_SECRET', 'ADMIN_TOKEN'].includes(n))
          .map((n) => [n, '']),
      );
      expect(readConfig({ ...base(), ...empty })).toMatchObject(defaults);
      const cwd = process.cwd();
      expect(readConfig({ TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, DATA_DIR: '' }).dataDir).toBe(resolve(cwd, '.data'));
    });

    it('takes the ends of each range, each log level, and a database URL', () => {
      expect(
        readConfig({
          ...base(),
          DB_POOL_MAX: '1',
          DB_COMMIT_LANES: '256',
          COMMAND_TIMEOUT_MS: '200',
          PORT: '0',
          LOG_LEVEL: 'debug',
          DATABASE_URL: 'postgresql://u:p@db:5432/game',
        }),
      ).toMatchObject({
        poolMax: 1,
        commitLanes: 256,
        commandTimeoutMs: 200,
        port: 0,
        logLevel: 'debug',
        databaseUrl: 'postgresql://u:p@db:5432/game',
      });
      for (const level of LOG_LEVELS) expect(readConfig({ ...base(), LOG_LEVEL: level }).logLevel).toBe(level);
      expect(readConfig({ ...base(), ALLOWED_ORIGINS: 'https://a.example, http://localhost:5173' }).allowedOrigins).toEqual([
        'https://a.example',
        'http://localhost:5173',
      ]);
    });

    // Issue 23: each of these values used to start a server that could not work, or that silently ran
    // on something else.
    it.each([
      ['a pool of no connections', 'DB_POOL_MAX', '0', 'a whole number from 1 to 1000'],
      ['no commit lanes', 'DB_COMMIT_LANES', '0', 'a whole number from 1 to 256'],
      ['no time for a command', 'COMMAND_TIMEOUT_MS', '0', 'a whole number from 200 to 60000'],
      ['a mailbox that holds nothing', 'MAILBOX_DEPTH', '0', 'a whole number from 1 to 10000'],
      ['a number above the range', 'PORT', '65536', 'a whole number from 0 to 65535'],
      ['a number in another notation', 'SEND_QUEUE_BYTES', '1e6', 'a whole number from 65536 to 67108864'],
      ['a fraction', 'PIPELINE_DEPTH', '2.5', 'a whole number from 1 to 64'],
      ['a negative number', 'ROOM_EXPIRY_SECONDS', '-300', 'a whole number from 10 to 604800'],
      ['a word', 'PASSIVATE_AFTER_SECONDS', 'sixty', 'a whole number from 1 to 86400'],
      ['a misspelt log level', 'LOG_LEVEL', 'verbose', 'one of debug, info, warn, error'],
      ['a log level in capitals', 'LOG_LEVEL', 'INFO', 'one of debug, info, warn, error'],
      ['a flag other than 1 or 0', 'ALLOW_TEST_SEEDS', 'true', '1 or 0'],
      ['a database URL of another kind', 'DATABASE_URL', 'mysql://db/game', 'a postgres:// or postgresql:// URL'],
      ['an instance URL that is not one', 'INSTANCE_URL', 'game-server-1:3000', 'an http:// or https:// URL'],
      ['a host with a space', 'HOST', '0.0.0.0 ', 'an address or host name to listen on (no spaces)'],
    ])('refuses %s (%s=%s), naming the variable, the value and what it accepts', (_, name, value, accepts) => {
      const error = refusal({ [name]: value });
      expect(error.problems).toEqual([expect.objectContaining({ variable: name, shown: `'${value}'`, accepts })]);
      expect(error.message).toBe(
        `an environment variable has a value the server does not accept:\n  ${name}='${value}': expected ${accepts}`,
      );
    });

    it.each([
      ['ALLOWED_ORIGINS', 'https://a.example,https://b.example/', "'https://b.example/' is not an origin"],
      ['ALLOWED_ORIGINS', 'a.example', "'a.example' is not an origin"],
      ['TRUSTED_PROXIES', '10.0.0.1,proxy.local', "'proxy.local' is not an IP address, a CIDR or a keyword"],
    ])('refuses a list (%s=%s) naming its bad entry', (name, value, detail) => {
      const [problem] = refusal({ [name]: value }).problems;
      expect(problem).toEqual(expect.objectContaining({ variable: name, shown: `'${value}'`, detail }));
      expect(problem.line).toBe(`${name}='${value}': ${detail}; expected ${SERVER_ENV[name as ServerEnvName].accepts}`);
    });

    it('lists every bad variable at once, one line each, in the order of the table', () => {
      const error = refusal({ LOG_LEVEL: 'verbose', DB_POOL_MAX: '0', COMMAND_TIMEOUT_MS: 'soon', DB_COMMIT_LANES: '0', PORT: '3000' });
      expect(error.problems.map((p) => p.variable)).toEqual(['DB_POOL_MAX', 'DB_COMMIT_LANES', 'COMMAND_TIMEOUT_MS', 'LOG_LEVEL']);
      expect(error.message.split('\n')).toEqual([
        '4 environment variables have values the server does not accept:',
        "  DB_POOL_MAX='0': expected a whole number from 1 to 1000",
        "  DB_COMMIT_LANES='0': expected a whole number from 1 to 256",
        "  COMMAND_TIMEOUT_MS='soon': expected a whole number from 200 to 60000",
        "  LOG_LEVEL='verbose': expected one of debug, info, warn, error",
      ]);
    });

    it("never shows a secret's value nor a database URL's password", () => {
      const error = refusal({
        TOKEN_SECRET: 'hunter2-short',
        ADMIN_TOKEN: 'change-me-hunter3',
        DATABASE_URL: 'mysql://game:hunter4@db/game',
      });
      expect(error.problems.map((p) => p.variable)).toEqual(['DATABASE_URL', 'ADMIN_TOKEN', 'TOKEN_SECRET']);
      expect(error.message).not.toMatch(/hunter/);
      expect(error.message).toContain("DATABASE_URL='mysql://game:***@db/game': expected a postgres:// or postgresql:// URL");
      expect(error.message).toContain('  TOKEN_SECRET is 13 characters; it must be at least 32');
      expect(error.message).toContain('  ADMIN_TOKEN is a placeholder published in this repository');
      expect(refusal({ DATABASE_URL: 'not a url :hunter5' }).message).not.toMatch(/hunter/);
    });

    it('checks the lease against the heartbeat only once both are numbers, and then names the lease', () => {
      expect(refusal({ INSTANCE_HEARTBEAT_SECONDS: 'two', LEASE_SECONDS: '1' }).problems.map((p) => p.variable)).toEqual([
        'INSTANCE_HEARTBEAT_SECONDS',
      ]);
      expect(refusal({ INSTANCE_HEARTBEAT_SECONDS: '3', LEASE_SECONDS: '5' }).problems.map((p) => p.variable)).toEqual(['LEASE_SECONDS']);
    });

    it('refuses a direct database URL without DATABASE_URL, and takes it with one', () => {
      const direct = 'postgresql://game:hunter6@db:5432/game';
      const [problem] = refusal({ DATABASE_DIRECT_URL: direct }).problems;
      expect(problem).toEqual(expect.objectContaining({ variable: 'DATABASE_DIRECT_URL', shown: "'postgresql://game:***@db:5432/game'" }));
      expect(problem.line).toMatch(/^DATABASE_DIRECT_URL='postgresql:\/\/game:\*\*\*@db:5432\/game': set without DATABASE_URL/);
      expect(readConfig({ ...base(), DATABASE_URL: 'postgresql://game:p@pooler:6432/game', DATABASE_DIRECT_URL: direct })).toMatchObject({
        databaseUrl: 'postgresql://game:p@pooler:6432/game',
        databaseDirectUrl: direct,
      });
    });

    it("refuses a seat's reply memory larger than the room's, naming the seat's, and reads both in bytes", () => {
      expect(refusal({ REPLY_MEMORY_ROOM_BYTES: '4096', REPLY_MEMORY_SEAT_BYTES: '8192' }).problems.map((p) => p.line)).toEqual([
        "REPLY_MEMORY_SEAT_BYTES='8192': more than the whole room's (REPLY_MEMORY_ROOM_BYTES=4096); expected a whole number from 256 to 16777216, at most REPLY_MEMORY_ROOM_BYTES",
      ]);
      expect(readConfig({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo }).replyMemory).toEqual({
        roomBytes: 65536,
        seatBytes: 8192,
      });
      expect(
        readConfig({
          DATA_DIR: dataDir(),
          TOKEN_SECRET: strong,
          ADMIN_TOKEN: strongToo,
          REPLY_MEMORY_ROOM_BYTES: '4096',
          REPLY_MEMORY_SEAT_BYTES: '4096',
        }).replyMemory,
      ).toEqual({ roomBytes: 4096, seatBytes: 4096 });
    });

    it("matches the README's configuration table: every variable, what it accepts, and its default", () => {
      const readme = readFileSync(join(__dirname, '../../../../README.md'), 'utf8');
      const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('### Limits'));
      const rows = [...table.matchAll(/^\| `([A-Z_]+)` \| (.*?) \| (.*?) \| .* \|$/gm)].map(([, name, fallback, accepts]) => ({
        name,
        fallback,
        accepts,
      }));
      expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(SERVER_ENV).sort());
      for (const { name, fallback, accepts } of rows) {
        const variable = SERVER_ENV[name as ServerEnvName];
        expect({ name, accepts }).toEqual({ name, accepts: variable.accepts });
        // When the README states a default as a plain value, it must be the schema's default.
        const parsed = (variable.schema as { parse(v: undefined): unknown }).parse(undefined);
        if (typeof parsed === 'number' || typeof parsed === 'string')
          expect({ name, fallback: fallback.replace(/`/g, '') }).toEqual({ name, fallback: String(parsed) });
      }
    });
  });
});
