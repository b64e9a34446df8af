#!/usr/bin/env node
// `npm run cluster -- --instances N [--port P] [--data DIR] [--fresh] [--database-url URL]` runs a
// cluster on one machine without Docker. It starts an embedded PostgreSQL (or uses the one that
// --database-url names), N game-server instances, and HAProxy in front of them, routing by room code
// (deploy/haproxy.cfg.template). Each instance is the built server in its own process, with its own
// PORT, INSTANCE_NAME and DATA_DIR. All of them share one DATABASE_URL, one TOKEN_SECRET and one
// ADMIN_TOKEN, so a token works on any of them.
// On stdout the script prints one JSON line per instance ({"instance","pid","url"}) and then
// {"proxy": URL}. Everything else goes to stderr and to DIR/*.log.
// SIGINT or SIGTERM stops it all: first the proxy, then the instances (which drain), then PostgreSQL.
// A line `restart <instance-name>` on stdin restarts that instance in place. The instance gets
// SIGTERM (it drains and releases its leases), and then starts again with the same name, port, env
// and data dir. Once its /health answers 200, the script prints
// {"restarted","pid","url","downMs","stoppedMs"} (or {"restartFailed","error"}).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const REPO = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const BUILT = join(REPO, 'dist/apps/game-server/apps/game-server/src');
const SERVER = join(BUILT, 'main.js');
const MAX_INSTANCES = 16;
const START_TIMEOUT_MS = 30_000;
// The server's own drain is bounded (5 s for its rooms, 2 s for its sockets), so a server still draining after this is stuck.
const DRAIN_TIMEOUT_MS = 30_000;
// The loopback address HAProxy connects to the instances from. It is not 127.0.0.1, which every
// other local process uses. (Linux answers on all of 127.0.0.0/8.)
const PROXY_SOURCE = '127.0.0.2';

const say = (msg) => process.stderr.write(`[cluster] ${msg}\n`);

function fail(msg) {
  say(msg);
  process.exit(1);
}

function options() {
  const { values } = parseArgs({
    options: {
      instances: { type: 'string', default: '2' },
      port: { type: 'string', default: '8080' },
      data: { type: 'string', default: join(REPO, '.data', 'cluster') },
      fresh: { type: 'boolean', default: false },
      // An outside PostgreSQL to use instead of the embedded one (say, behind a proxy that a test cuts).
      'database-url': { type: 'string' },
    },
  });
  const instances = Number(values.instances);
  const port = Number(values.port);
  if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES)
    fail(`--instances must be a whole number from 1 to ${MAX_INSTANCES}, got '${values.instances}'`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number (0: any free one), got '${values.port}'`);
  const databaseUrl = values['database-url'];
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    fail(`--database-url must be a postgres:// URL, got '${databaseUrl.slice(0, 60)}'`);
  return { instances, port, data: resolve(values.data), fresh: values.fresh, databaseUrl };
}

/** Makes sure Debian's HAProxy is installed. It is installed with apt when missing, as the test command does for Chromium. */
function ensureHaproxy() {
  if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0) return;
  if (process.getuid?.() !== 0) fail('haproxy is missing and this is not root: run `apt-get install -y haproxy` first');
  say('haproxy is missing: installing it with apt');
  const apt = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (apt.status !== 0) fail('apt-get install haproxy failed');
}

function freePort() {
  return new Promise((done, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Finds `n` distinct free ports. Each is held until all are taken, so no two are the same. */
async function freePorts(n) {
  const held = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = createServer();
      await new Promise((done, reject) => server.once('error', reject).listen(0, '127.0.0.1', done));
      held.push(server);
    }
    return held.map((s) => s.address().port);
  } finally {
    await Promise.all(held.map((s) => new Promise((done) => s.close(done))));
  }
}

/** Starts a child whose output goes to its own log file. The child's `exited` settles when it ends. */
function launch(name, command, args, env, logFile) {
  // Each child gets its own process group, so a Ctrl-C at the terminal reaches only this script.
  // The script then stops the children in order (an instance drains on one signal, and exits at
  // once on two).
  const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  // The log is ended once both pipes are done (`close`), not when stderr ends, because stdout's last
  // lines are written to it too. A restarted instance opens the same file again.
  child.stderr.pipe(log, { end: false });
  child.once('close', () => !log.writableEnded && log.end());
  child.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  child.exited.then(
    ({ code, signal }) => !stopping && !child.restarting && say(`${name} exited (${signal ?? `code ${code}`}); see ${logFile}`),
  );
  child.name = name;
  child.log = log;
  return child;
}

/** Resolves once the server logs `server started`. Rejects if the server exits or takes too long first. */
function started(child, logFile) {
  return new Promise((done, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${child.name} did not start within ${START_TIMEOUT_MS} ms; see ${logFile}`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      child.log.write(line + '\n');
      if (!line.startsWith('{')) return;
      try {
        if (JSON.parse(line).msg === 'server started') {
          clearTimeout(timer);
          done();
        }
      } catch {
        // The line is part of the banner.
      }
    });
    void child.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${child.name} exited before it started (${signal ?? `code ${code}`}); see ${logFile}`));
    });
  });
}

/** Resolves once `url` answers /health with 200. Rejects if `child` exits or this takes too long. */
async function healthy(url, child, what) {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${child.name} exited while starting; see its log`);
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} at ${url} did not answer /health within ${START_TIMEOUT_MS} ms`);
}

const alive = (child) => child.exitCode === null && child.signalCode === null;

let stopping = false;
const children = [];
let database;
// However this script ends, it leaves no child behind.
process.once('exit', () => {
  for (const c of children) if (alive(c)) c.kill('SIGKILL');
});

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  say('stopping');
  // The proxy stops first, so no new traffic comes. Then the instances stop (each drains), and then
  // their database.
  const proxy = children.find((c) => c.name === 'haproxy');
  const instances = children.filter((c) => c !== proxy);
  if (proxy) {
    proxy.kill('SIGTERM');
    await proxy.exited;
  }
  for (const c of instances) c.kill('SIGTERM');
  await Promise.all(instances.map((c) => c.exited));
  await database?.stop();
  if (opts.fresh) rmSync(opts.data, { recursive: true, force: true });
  process.exit(code);
}

const opts = options();

async function main() {
  if (!existsSync(SERVER)) fail(`${SERVER} is missing: run \`npm run build\` (npm run cluster does) or \`npx nest build game-server\``);
  ensureHaproxy();
  mkdirSync(opts.data, { recursive: true });
  // As root, the embedded PostgreSQL runs as the `postgres` user, which must be able to reach its folder.
  chmodSync(opts.data, 0o755);
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  // The script uses the server's own code, so it gets the same embedded PostgreSQL and the same kept secrets as `npm start`.
  const { startEmbeddedPostgres } = require(join(BUILT, 'embedded-postgres.js'));
  // The server module's code is built from libs/server, beside the app's code.
  const { checkSecret, keptSecret } = require(join(REPO, 'dist/apps/game-server/libs/server/src/config/secrets.js'));
  database = opts.databaseUrl
    ? { url: opts.databaseUrl, stop: async () => undefined }
    : await startEmbeddedPostgres(join(opts.data, 'database'), (msg) => say(msg));
  const secret = (name, file) => (process.env[name] ? checkSecret(name, process.env[name]) : keptSecret(opts.data, file).value);
  const shared = { TOKEN_SECRET: secret('TOKEN_SECRET', 'token-secret'), ADMIN_TOKEN: secret('ADMIN_TOKEN', 'admin-token') };
  if (!process.env.ADMIN_TOKEN) say(`the admin token is kept in ${join(opts.data, 'admin-token')}`);

  const instances = [];
  // Each instance gets a public port and an operator port (for /metrics and /admin, which the proxy
  // never forwards, as in compose). All of the ports are distinct.
  const ports = await freePorts(2 * opts.instances);
  for (let i = 1; i <= opts.instances; i++) {
    const [port, operatorPort] = ports.slice(2 * (i - 1), 2 * i);
    instances.push({
      name: `instance-${i}`,
      port,
      url: `http://127.0.0.1:${port}`,
      operatorPort,
      operatorUrl: `http://127.0.0.1:${operatorPort}`,
    });
  }
  const start = (instance) => {
    const dataDir = join(opts.data, instance.name);
    const logFile = join(opts.data, `${instance.name}.log`);
    const child = launch(
      instance.name,
      process.execPath,
      [SERVER],
      {
        ...process.env,
        ...shared,
        HOST: '127.0.0.1',
        PORT: String(instance.port),
        OPERATOR_PORT: String(instance.operatorPort),
        INSTANCE_NAME: instance.name,
        INSTANCE_URL: instance.url,
        // HAProxy runs here and adds X-Forwarded-For (option forwardfor), and the rate limits count the
        // client it names. Only the proxy may name a client. It connects from an address of its own
        // (PROXY_SOURCE), so another process on this machine cannot name a client of its own.
        TRUSTED_PROXIES: process.env.TRUSTED_PROXIES || PROXY_SOURCE,
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
      },
      logFile,
    );
    children.push(child);
    instance.pid = child.pid;
    instance.child = child;
    return started(child, logFile);
  };
  // The first instance migrates the database alone, and the others find it migrated.
  await start(instances[0]);
  await Promise.all(instances.slice(1).map(start));

  const proxyPort = opts.port || (await freePort());
  const { renderHaproxyConfig } = require(join(REPO, 'scripts/haproxy-config.cjs'));
  const config = join(opts.data, 'haproxy.cfg');
  writeFileSync(
    config,
    renderHaproxyConfig({
      bind: `127.0.0.1:${proxyPort}`,
      servers: instances.map((i) => ({ name: i.name, address: `127.0.0.1:${i.port}` })),
      source: PROXY_SOURCE,
    }),
  );
  // -db keeps HAProxy in the foreground, so it stops with this script. -W would fork a master.
  const proxy = launch('haproxy', 'haproxy', ['-db', '-f', config], process.env, join(opts.data, 'haproxy.log'));
  proxy.stdout.pipe(proxy.log, { end: false });
  children.push(proxy);
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  await healthy(proxyUrl, proxy, 'the proxy');

  for (const i of instances)
    process.stdout.write(JSON.stringify({ instance: i.name, pid: i.pid, url: i.url, operatorUrl: i.operatorUrl }) + '\n');
  process.stdout.write(JSON.stringify({ proxy: proxyUrl }) + '\n');
  say(
    `${opts.instances} instance(s) behind ${proxyUrl}; logs in ${opts.data}; Ctrl-C stops everything; \`restart <instance-name>\` on stdin restarts one`,
  );
  acceptRestarts(instances, start);
}

/**
 * Takes `restart <name>` lines on stdin, one at a time, in the order they came. A rolling restart is
 * one line per instance, each sent once the previous instance's {"restarted"} line is out.
 */
function acceptRestarts(instances, start) {
  const pending = new Set();
  let queue = Promise.resolve();
  const names = instances.map((i) => i.name).join(', ');
  // Only the text echoed back is cut short, so that a stray paste does not flood the terminal.
  const shown = (text) => (text.length > 60 ? `${text.slice(0, 60)}...` : text);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (!words.length) return;
    if (stopping) return say(`ignored '${shown(line.trim())}': the cluster is stopping`);
    if (words[0] !== 'restart' || words.length !== 2)
      return say(`unknown command '${shown(line.trim())}': the only one is \`restart <instance-name>\` (${names})`);
    const instance = instances.find((i) => i.name === words[1]);
    if (!instance) return say(`no instance is named '${shown(words[1])}' (the cluster has ${names})`);
    if (pending.has(instance.name)) return say(`${instance.name} is already being restarted`);
    pending.add(instance.name);
    queue = queue
      .then(() => restart(instance, start))
      .then(
        (line) => process.stdout.write(JSON.stringify(line) + '\n'),
        (err) => {
          const error = err instanceof Error ? err.message : String(err);
          say(`restarting ${instance.name} failed: ${error}`);
          process.stdout.write(JSON.stringify({ restartFailed: instance.name, error }) + '\n');
        },
      )
      .finally(() => pending.delete(instance.name));
  });
}

/**
 * Restarts an instance. It sends SIGTERM, and the instance drains: it refuses commands with 503,
 * its rooms finish what they hold, it releases its leases and it closes sockets with 1001. Then the
 * same instance starts again. An instance that had already died (a kill -9) is just started.
 * `downMs` is the time from the signal to the new process's first 200 on /health, asked of the
 * process directly (the proxy takes two more checks a second apart before it sends the process
 * traffic). `stoppedMs` is the time from the signal to the old process's exit (its drain). After
 * that, whatever this name serves comes from the new process.
 */
async function restart(instance, start) {
  const old = instance.child;
  const since = performance.now();
  let stoppedMs = 0;
  if (alive(old)) {
    say(`restarting ${instance.name} (pid ${old.pid}): SIGTERM, it drains`);
    old.restarting = true;
    old.kill('SIGTERM');
    let timer;
    const late = new Promise((r) => (timer = setTimeout(() => r('late'), DRAIN_TIMEOUT_MS)));
    if ((await Promise.race([old.exited, late])) === 'late') {
      say(`${instance.name} did not stop within ${DRAIN_TIMEOUT_MS} ms of SIGTERM: SIGKILL`);
      old.kill('SIGKILL');
      await old.exited;
    }
    clearTimeout(timer);
    stoppedMs = Math.round(performance.now() - since);
  } else {
    say(`restarting ${instance.name}: it had exited already, starting it again`);
  }
  if (children.includes(old)) children.splice(children.indexOf(old), 1);
  if (stopping) throw new Error('the cluster is stopping');
  await start(instance);
  await healthy(instance.url, instance.child, instance.name);
  const downMs = Math.round(performance.now() - since);
  say(`${instance.name} is back (pid ${instance.pid}), ${downMs} ms after the signal`);
  return { restarted: instance.name, pid: instance.pid, url: instance.url, operatorUrl: instance.operatorUrl, downMs, stoppedMs };
}

main().catch((err) => {
  say(err instanceof Error ? err.message : String(err));
  void stopAll(1);
});
