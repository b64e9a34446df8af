import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from './server-config';

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
      expect(() => readConfig(env)).toThrow(new RegExp(`^${name} is 31 characters; it must be at least 32`));
      expect(readdirSync(dir)).toEqual([]);
    });

    // The values docker-compose.yml shipped as fallbacks, and the ones the tests use, in any case.
    it.each([
      ['TOKEN_SECRET', 'change-me-to-a-long-random-secret'],
      ['TOKEN_SECRET', 'CHANGE-ME-TO-A-LONG-RANDOM-SECRET'],
      ['TOKEN_SECRET', 'test-secret-0123456789abcdef-0123456789'],
      ['ADMIN_TOKEN', 'change-me'],
      ['ADMIN_TOKEN', 'Change-Me-please-with-more-than-32-characters'],
    ])('refuses %s=%s as a placeholder published in this repository', (name, value) => {
      const dir = dataDir();
      expect(() => readConfig({ DATA_DIR: dir, TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, [name]: value })).toThrow(
        new RegExp(`^${name} is a placeholder published in this repository`),
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
      for (const [file, value] of [['admin-token', config.adminToken], ['token-secret', config.tokenSecret]]) {
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
      expect(second).toMatchObject({ adminToken: first.adminToken, tokenSecret: first.tokenSecret, adminTokenGenerated: false, adminTokenFile: join(dir, 'admin-token') });
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
    expect(() => readConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow("PORT must be a whole number, got 'eighty'");
    expect(readdirSync(dir)).toEqual([]);
  });

  describe('the instance among several', () => {
    it('takes INSTANCE_NAME, INSTANCE_URL and the heartbeat as given', () => {
      const config = readConfig({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, INSTANCE_NAME: 'game-server-1', INSTANCE_URL: 'http://game-server-1:3000', INSTANCE_HEARTBEAT_SECONDS: '2' });
      expect(config).toMatchObject({ instanceName: 'game-server-1', instanceUrl: 'http://game-server-1:3000', heartbeatMs: 2000 });
    });

    it('leaves the name and URL to the server (hostname and port) when unset or empty, and beats every 5 s', () => {
      const config = readConfig({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, INSTANCE_NAME: '' });
      expect(config).toMatchObject({ instanceName: undefined, instanceUrl: undefined, heartbeatMs: 2000, leaseMs: 6000 });
    });

    it('refuses a lease shorter than two heartbeats: it would run out between renewals', () => {
      expect(() => readConfig({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo, INSTANCE_HEARTBEAT_SECONDS: '5', LEASE_SECONDS: '6' })).toThrow(/LEASE_SECONDS \(6\) must be at least two heartbeats/);
    });

    it.each(['has space', '-leading-dash', 'x'.repeat(64), 'name/with/slash', 'ünïcode'])('refuses INSTANCE_NAME %p before writing anything', (name) => {
      const dir = dataDir();
      expect(() => readConfig({ DATA_DIR: dir, INSTANCE_NAME: name })).toThrow('INSTANCE_NAME must be 1 to 63 letters');
      expect(readdirSync(dir)).toEqual([]);
    });
  });
  describe('the limits of a public service', () => {
    const base = () => ({ DATA_DIR: dataDir(), TOKEN_SECRET: strong, ADMIN_TOKEN: strongToo });

    it('has defaults that bound one address, one seat and one instance, and take no seed', () => {
      expect(readConfig(base())).toMatchObject({ openRatePerMinute: 30, openBurst: 30, trustedProxies: [], socketsPerSeat: 3, maxLiveRooms: 5000, allowTestSeeds: false });
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
      expect(config).toMatchObject({ openRatePerMinute: 6, openBurst: 12, trustedProxies: ['loopback', '10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'uniquelocal'], socketsPerSeat: 2, maxLiveRooms: 100, allowTestSeeds: true });
    });

    it('turns the open rate and the live-room cap off with 0', () => {
      expect(readConfig({ ...base(), OPEN_RATE_PER_MINUTE: '0', MAX_LIVE_ROOMS: '0', ALLOW_TEST_SEEDS: '0' })).toMatchObject({ openRatePerMinute: 0, maxLiveRooms: 0, allowTestSeeds: false });
    });

    it.each([
      [{ OPEN_BURST: '0' }, "OPEN_BURST must be at least 1, got '0'"],
      [{ SOCKETS_PER_SEAT: '0' }, "SOCKETS_PER_SEAT must be at least 1, got '0'"],
      [{ OPEN_RATE_PER_MINUTE: '2.5' }, "OPEN_RATE_PER_MINUTE must be a whole number, got '2.5'"],
      [{ MAX_LIVE_ROOMS: '-1' }, "MAX_LIVE_ROOMS must be a whole number, got '-1'"],
      [{ ALLOW_TEST_SEEDS: 'yes' }, "ALLOW_TEST_SEEDS must be 1 or 0, got 'yes'"],
      [{ TRUSTED_PROXIES: 'loopback,haproxy' }, "TRUSTED_PROXIES: 'haproxy' is not an IP address"],
      [{ TRUSTED_PROXIES: '10.0.0.0/33' }, "TRUSTED_PROXIES: '10.0.0.0/33' is not an IP address"],
      [{ TRUSTED_PROXIES: '10.0.0.0/8/8' }, "TRUSTED_PROXIES: '10.0.0.0/8/8' is not an IP address"],
      [{ TRUSTED_PROXIES: '::1/129' }, "TRUSTED_PROXIES: '::1/129' is not an IP address"],
    ])('refuses %j before writing anything', (env, message) => {
      const dir = dataDir();
      expect(() => readConfig({ DATA_DIR: dir, ...env })).toThrow(message);
      expect(readdirSync(dir)).toEqual([]);
    });
  });
});
