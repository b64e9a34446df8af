import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { MetricName } from '@app/observability';
import { composeProblems } from './compose-check';

/**
 * Issue 14 item 5's files, checked by the tools that run them, since no Docker engine runs here:
 * HAProxy's configuration with `haproxy -c`, Prometheus's with `promtool check config`, its
 * alert rules with `promtool check rules` and their unit tests with `promtool test rules`, the
 * dashboard's queries as PromQL, and the compose file's services and mounts as YAML (issue 23:
 * with a health check for each, on current images; scripts/test.mjs also runs `docker compose
 * config -q` where the compose plugin exists). The test command installs haproxy and promtool
 * from Debian when they are missing. The Debian promtool is 2.42 while compose runs Prometheus 3:
 * the files keep to what both read (nothing 3.0 removed or changed is used).
 */
const repo = join(__dirname, '../../..');
const read = (file: string) => readFileSync(join(repo, file), 'utf8');
const yaml = (file: string) => load(read(file)) as any;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderHaproxyConfig, composeHaproxyConfig } = require('../../../scripts/haproxy-config.cjs') as {
  renderHaproxyConfig(o: {
    bind: string;
    servers: { name: string; address: string }[];
    source?: string;
    tls?: { bind: string; crt: string };
  }): string;
  composeHaproxyConfig(o?: { tls?: boolean }): string;
};

function tool(command: string, args: string[], cwd = repo): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw new Error(`${command} could not run (${result.error.message}): npm test installs it with apt (scripts/test.mjs)`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function expectTool(command: string, args: string[], cwd = repo): string {
  const { status, output } = tool(command, args, cwd);
  expect({ command: `${command} ${args.join(' ')}`, status, output }).toEqual({
    command: `${command} ${args.join(' ')}`,
    status: 0,
    output,
  });
  return output;
}

const scratch = () => mkdtempSync(join(tmpdir(), 'deploy-config-'));

/** A port nothing listens on (taken from the kernel and released). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
      .once('error', fail)
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => done(port));
      });
  });
}

/** GET url until something answers (a refused connection is retried), or fail at the deadline or when `child` exits. */
async function firstAnswer(url: string, child: ChildProcess, deadlineMs = 20_000): Promise<Response> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode} before answering ${url}`);
    try {
      return await fetch(url, { signal: AbortSignal.timeout(2000) });
    } catch (err) {
      if (Date.now() > until) throw new Error(`no answer from ${url} in ${deadlineMs} ms: ${String(err)}`, { cause: err });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
const FAMILIES = new Set<string>(Object.values(MetricName));
/** Metric names a PromQL expression reads: identifiers that are followed by `{`, `[` or `)` or stand alone. */
function metricsIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  const names = [...withoutStrings.matchAll(/\b(game_[a-z_]+|up)\b/g)].map((m) => m[1]);
  // Histogram and counter series carry suffixes of their family.
  return names.map((n) => n.replace(/_(bucket|sum|count)$/, ''));
}

describe('the HAProxy configuration', () => {
  const compose = composeHaproxyConfig();

  it('is the template rendered for the compose services, as committed', () => {
    expect(read('deploy/haproxy/haproxy.cfg')).toBe(compose);
    expect(read('deploy/haproxy/haproxy-tls.cfg')).toBe(composeHaproxyConfig({ tls: true }));
  });

  it('passes haproxy -c with TLS (the compose tls profile), given a certificate', () => {
    const dir = scratch();
    const made = tool('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    expect(made.status).toBe(0);
    writeFileSync(join(dir, 'site.pem'), readFileSync(join(dir, 'cert.pem'), 'utf8') + readFileSync(join(dir, 'key.pem'), 'utf8'));
    const tls = composeHaproxyConfig({ tls: true });
    const crt = '/usr/local/etc/haproxy/certs/site.pem';
    expect(tls).toContain(`bind *:8443 ssl crt ${crt} alpn http/1.1`);
    writeFileSync(join(dir, 'haproxy.cfg'), tls.replace(crt, join(dir, 'site.pem')));
    expect(expectTool('haproxy', ['-c', '-f', join(dir, 'haproxy.cfg')])).toContain('Configuration file is valid');
    // Without the certificate it is refused: the check reads the file, not just the syntax.
    writeFileSync(join(dir, 'missing.cfg'), tls.replace(crt, join(dir, 'none.pem')));
    expect(tool('haproxy', ['-c', '-f', join(dir, 'missing.cfg')]).status).not.toBe(0);
  });

  it.each([
    ['the compose stack', compose],
    [
      'a local cluster',
      renderHaproxyConfig({
        bind: '127.0.0.1:8080',
        servers: [1, 2, 3].map((n) => ({ name: `instance-${n}`, address: `127.0.0.1:${4000 + n}` })),
        source: '127.0.0.2',
      }),
    ],
  ])('passes haproxy -c for %s', (_, config) => {
    const dir = scratch();
    writeFileSync(join(dir, 'haproxy.cfg'), config);
    expect(expectTool('haproxy', ['-c', '-f', join(dir, 'haproxy.cfg')])).toContain('Configuration file is valid');
  });

  it('hashes one key by consistent hashing, routes by readiness, and keeps WebSocket tunnels open', () => {
    const lines = compose.split('\n').map((l) => l.trim());
    for (const line of [
      'balance hdr(X-Room-Code)',
      'hash-type consistent',
      'option httpchk GET /health/ready',
      'http-check expect status 200',
      'timeout tunnel 1h',
    ])
      expect(lines).toContain(line);
    // An instance marked down keeps its tunnels (a database outage disconnects nobody), and the
    // proxy's own 503 says when to retry.
    expect(compose).not.toMatch(/on-marked-down\s+shutdown-sessions/);
    expect(lines).toContain('http-after-response set-header Retry-After 2 if { status 503 } !{ res.hdr(retry-after) -m found }');
    // The key comes from room= on any request, and from the API paths that name a room; no page
    // path (a game's own) is a key: a new game's page needs no line here.
    expect(lines).toContain('http-request set-var(txn.room) url_param(room),upper if { url_param(room) -m found }');
    expect(compose).toContain('path_beg /api/rooms/ /api/tables/ }');
    // The operators' paths are never forwarded (they live on the instances' OPERATOR_PORT).
    expect(lines).toContain('http-request deny deny_status 404 if { path /metrics /admin } || { path_beg /admin/ }');
    expect(compose).not.toContain('/admin/api/rooms/');
    expect(compose).not.toMatch(/path_beg \/play\/|\/host\/|\/table\//);
    // A client cannot choose the instance by sending the header itself.
    expect(compose.indexOf('http-request del-header X-Room-Code')).toBeLessThan(compose.indexOf('http-request set-header X-Room-Code'));
  });

  it('answers its own health check (the compose one) with 200 while no instance is ready, and forwards nothing else there', async () => {
    const [port, closed] = [await freePort(), await freePort()];
    const dir = scratch();
    writeFileSync(
      join(dir, 'haproxy.cfg'),
      renderHaproxyConfig({ bind: `127.0.0.1:${port}`, servers: [{ name: 'instance-1', address: `127.0.0.1:${closed}` }] }),
    );
    const haproxy = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
    try {
      const live = await firstAnswer(`http://127.0.0.1:${port}/haproxy/live`, haproxy);
      expect(live.status).toBe(200);
      // The same proxy has nowhere to send a request for an instance.
      expect((await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(10_000) })).status).toBe(503);
      // The operators' paths end at the proxy: 404, not forwarded (forwarded, they would get the 503 above).
      for (const path of ['/metrics', '/admin', '/admin/', '/admin/api/overview']) {
        expect({ path, status: (await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) })).status }).toEqual({
          path,
          status: 404,
        });
      }
    } finally {
      const exited = new Promise((r) => haproxy.once('exit', r));
      haproxy.kill('SIGTERM');
      await exited;
    }
  });

  it('numbers the servers in the order given, so a list always maps a code to the same instance', () => {
    const config = renderHaproxyConfig({
      bind: '*:80',
      servers: [
        { name: 'b', address: 'b:1' },
        { name: 'a', address: 'a:1' },
      ],
    });
    expect(config).toContain('    server b b:1 id 1\n    server a a:1 id 2');
  });

  it.each([
    [{ bind: '*:80', servers: [] }, 'at least one instance'],
    [{ bind: '*:80\n    bind *:81', servers: [{ name: 'a', address: 'a:1' }] }, 'bind must be host:port'],
    [{ bind: '*:80', servers: [{ name: 'a b', address: 'a:1' }] }, 'an instance name must be'],
    [{ bind: '*:80', servers: [{ name: 'a', address: 'a:1 backup' }] }, 'an instance address must be host:port'],
  ])('refuses to render a config from bad input (%#)', (input, message) => {
    expect(() => renderHaproxyConfig(input)).toThrow(message);
  });
});

describe('Prometheus', () => {
  it('passes promtool check config, with its rule file', () => {
    expect(expectTool('promtool', ['check', 'config', 'prometheus.yml'], join(repo, 'deploy/prometheus'))).toContain(
      'SUCCESS: 1 rule files found',
    );
  });

  it('scrapes every instance of the compose stack directly, not through the proxy', () => {
    const services = yaml('docker-compose.yml').services as Record<string, any>;
    const instances = Object.keys(services).filter((name) => services[name].environment?.INSTANCE_NAME);
    const [job] = yaml('deploy/prometheus/prometheus.yml').scrape_configs;
    expect(job.metrics_path).toBe('/metrics');
    // On each instance's OPERATOR_PORT: the public one answers /metrics 404.
    expect(job.static_configs.flatMap((c: any) => c.targets)).toEqual(
      instances.map((name) => `${name}:${services[name].environment.OPERATOR_PORT}`),
    );
    for (const name of instances) expect(services[name].environment.OPERATOR_PORT).toBe('9100');
  });

  it('has alert rules that pass promtool check rules, on the contract’s metric families only', () => {
    expect(expectTool('promtool', ['check', 'rules', 'alert-rules.yml'], join(repo, 'deploy/prometheus'))).toContain(
      'SUCCESS: 4 rules found',
    );
    const rules = yaml('deploy/prometheus/alert-rules.yml').groups.flatMap((g: any) => g.rules);
    expect(rules.map((r: any) => r.alert).sort()).toEqual([
      'GameServerCommandErrors',
      'GameServerDown',
      'GameServerMailboxWait',
      'GameServerPoolWaiting',
    ]);
    for (const rule of rules)
      for (const name of metricsIn(rule.expr)) expect([rule.alert, name === 'up' || FAMILIES.has(name)]).toEqual([rule.alert, true]);
  });

  it('fires each alert on its trouble and not on a healthy instance (promtool test rules)', () => {
    expect(expectTool('promtool', ['test', 'rules', 'alert-rules.test.yml'], join(repo, 'deploy/prometheus'))).toContain('SUCCESS');
  });
});

describe('Grafana', () => {
  const dashboard = JSON.parse(read('deploy/grafana/dashboards/game-rooms.json'));
  const exprs: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));

  it('is provisioned with the compose Prometheus as its datasource, and the dashboard folder the stack mounts', () => {
    const [datasource] = yaml('deploy/grafana/provisioning/datasources/prometheus.yml').datasources;
    expect(datasource).toMatchObject({ uid: 'prometheus', type: 'prometheus', url: 'http://prometheus:9090' });
    const [provider] = yaml('deploy/grafana/provisioning/dashboards/game-rooms.yml').providers;
    const grafana = yaml('docker-compose.yml').services.grafana;
    expect(grafana.volumes).toContain(`./deploy/grafana/dashboards:${provider.options.path}:ro`);
    for (const panel of dashboard.panels) expect(panel.datasource).toEqual({ type: 'prometheus', uid: datasource.uid });
  });

  it('shows commands and latency, mailbox wait, round trips per command, pool, sockets, rooms per instance, evictions and bytes by kind', () => {
    const read = new Set(exprs.flatMap(metricsIn));
    for (const family of [
      'commandDuration',
      'mailboxWait',
      'roundTrips',
      'poolConnections',
      'poolMax',
      'socketsOpen',
      'roomsActive',
      'evictions',
      'outboundBytes',
    ] as const) {
      expect([family, read.has(MetricName[family])]).toEqual([family, true]);
    }
    expect(exprs).toContain('game_rooms_active');
    expect(exprs).toContain('sum by (kind) (rate(game_ws_outbound_bytes_total[1m]))');
    for (const name of read) expect([name, name === 'up' || FAMILIES.has(name)]).toEqual([name, true]);
  });

  it('queries only valid PromQL (each checked by promtool as a recording rule)', () => {
    const dir = scratch();
    const rules = { groups: [{ name: 'dashboard', rules: exprs.map((expr, i) => ({ record: `dashboard:query_${i}`, expr })) }] };
    writeFileSync(join(dir, 'dashboard-rules.yml'), dump(rules));
    expect(expectTool('promtool', ['check', 'rules', join(dir, 'dashboard-rules.yml')])).toContain(`SUCCESS: ${exprs.length} rules found`);
  });
});

describe('the compose stack', () => {
  const services = yaml('docker-compose.yml').services as Record<string, any>;
  const instances = Object.entries(services).filter(([, s]) => s.environment?.INSTANCE_NAME);
  const dockerfile = read('Dockerfile');
  const facts = { builtImageHasHealthcheck: /^HEALTHCHECK\s+(?!NONE)/m.test(dockerfile) };

  it('passes the schema check: an image or a build and a health check for every service, ports as strings, depends_on on services that exist', () => {
    expect(facts.builtImageHasHealthcheck).toBe(true);
    expect(composeProblems(yaml('docker-compose.yml'), facts)).toEqual([]);
  });

  // Each a copy of the real file with one fault planted: the check names it.
  it.each<[string, (s: Record<string, any>) => void, string]>([
    ['a service without a health check', (s) => delete s.prometheus.healthcheck, 'prometheus: no healthcheck'],
    ['a built service whose image has none', (s) => delete s['game-server-1'].build, 'game-server-1: no healthcheck'],
    ['a port as a number', (s) => (s.proxy.ports = [8080]), 'proxy: port 8080 is not a string'],
    [
      'a dependency on a service that does not exist',
      (s) => (s.grafana.depends_on = { prometheus2: { condition: 'service_healthy' } }),
      'grafana: depends on prometheus2, which is not a service',
    ],
    [
      'a misspelt condition',
      (s) => (s.proxy.depends_on['game-server-1'].condition = 'healthy'),
      'proxy: depends on game-server-1 with condition "healthy"',
    ],
    [
      'waiting for health a service cannot report',
      (s) => delete s.postgres.healthcheck,
      'game-server-1: waits for postgres to be healthy, which has no healthcheck',
    ],
    ['neither an image nor a build', (s) => delete s.grafana.image, 'grafana: neither an image nor a build'],
    ['a health check that is not a command', (s) => (s.grafana.healthcheck.test = ['wget', 'x']), 'grafana: healthcheck test must be'],
    ['an interval without a unit', (s) => (s.grafana.healthcheck.interval = 10), 'grafana: healthcheck interval 10 is not a duration'],
  ])('refuses %s', (_, plant, problem) => {
    const doc = yaml('docker-compose.yml');
    plant(doc.services);
    expect(composeProblems(doc, facts).join('\n')).toContain(problem);
  });

  it('runs current images: Node.js 22 in every stage of the server image, Prometheus 3, Grafana 11 or 12', () => {
    const from = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(from.length).toBeGreaterThan(0);
    for (const image of from) expect(image).toMatch(/^node:22-/);
    expect(services.prometheus.image).toMatch(/^prom\/prometheus:v3\.\d+\.\d+$/);
    expect(services.grafana.image).toMatch(/^grafana\/grafana:1[12]\.\d+(\.\d+)?$/);
    expect(services.postgres.image).toBe('postgres:18');
  });

  it("checks each service's health with a tool its image has, on the endpoint it serves", () => {
    const check = (name: string) => services[name].healthcheck.test as string[];
    expect(check('postgres')).toEqual(['CMD-SHELL', 'pg_isready -U game -d game']);
    // Busybox (Prometheus) and Alpine (Grafana, HAProxy's -alpine variant) images have wget, not curl.
    expect(check('prometheus')).toEqual(['CMD', 'wget', '-q', '--spider', 'http://127.0.0.1:9090/-/healthy']);
    expect(check('grafana')).toEqual(['CMD', 'wget', '-q', '--spider', 'http://127.0.0.1:3000/api/health']);
    expect(services.proxy.image).toMatch(/-alpine$/);
    // The proxy's is HAProxy's own monitor-uri, on the port the frontend binds (tested for real above).
    const haproxy = read('deploy/haproxy/haproxy.cfg');
    const uri = /^\s*monitor-uri (\S+)$/m.exec(haproxy)?.[1];
    const bind = /^\s*bind \*:(\d+)$/m.exec(haproxy)?.[1];
    expect(check('proxy')).toEqual(['CMD', 'wget', '-q', '--spider', `http://127.0.0.1:${bind}${uri}`]);
    // The instances' is the image's HEALTHCHECK (container.e2e-spec.ts runs it).
    for (const [, s] of instances) expect([s.build, s.healthcheck]).toEqual([expect.anything(), undefined]);
    expect(services.grafana.depends_on).toEqual({ prometheus: { condition: 'service_healthy' } });
  });

  it('runs PostgreSQL, two instances, the proxy, Prometheus and Grafana', () => {
    expect(Object.keys(services).sort()).toEqual([
      'game-server-1',
      'game-server-2',
      'grafana',
      'postgres',
      'prometheus',
      'proxy',
      'proxy-tls',
    ]);
    // The TLS proxy starts only when asked for (`--profile tls`).
    expect(services['proxy-tls'].profiles).toEqual(['tls']);
    expect(instances.map(([name]) => name)).toEqual(['game-server-1', 'game-server-2']);
  });

  it("trusts X-Forwarded-For only from the proxy's own address, fixed on the stack's network", () => {
    const proxyAddress = services.proxy.networks?.default?.ipv4_address;
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // Not a range (`uniquelocal` would let any container on a private network name its own client).
    for (const [, s] of instances) expect(s.environment.TRUSTED_PROXIES).toBe(`\${TRUSTED_PROXIES:-${proxyAddress}}`);
    const subnet = (yaml('docker-compose.yml').networks as any)?.default?.ipam?.config?.[0]?.subnet as string;
    expect(subnet).toBe(`${proxyAddress!.split('.').slice(0, 3).join('.')}.0/24`);
    expect(read('deploy/haproxy/haproxy.cfg')).toMatch(/^\s*option forwardfor\b/m);
  });

  it('has the local cluster’s proxy connect from an address of its own, the one its instances trust', () => {
    const cluster = read('scripts/cluster.mjs');
    const source = /^const PROXY_SOURCE = '([\d.]+)';$/m.exec(cluster)?.[1];
    expect(source).toMatch(/^127\.0\.0\.(?!1$)\d+$/);
    expect(cluster).toContain('TRUSTED_PROXIES: process.env.TRUSTED_PROXIES || PROXY_SOURCE');
    const config = renderHaproxyConfig({ bind: '127.0.0.1:8080', servers: [{ name: 'instance-1', address: '127.0.0.1:4001' }], source });
    expect(config).toContain(`server instance-1 127.0.0.1:4001 id 1 source ${source}`);
  });

  it('gives each instance its own name on one database, with one set of secrets', () => {
    for (const [name, s] of instances) {
      expect(s.environment).toMatchObject({
        INSTANCE_NAME: name,
        INSTANCE_URL: `http://${name}:3000`,
        PORT: '3000',
        DATABASE_URL: 'postgres://game:game@postgres:5432/game',
      });
      expect(s.environment).toMatchObject({ ADMIN_TOKEN: '${ADMIN_TOKEN:-}', TOKEN_SECRET: '${TOKEN_SECRET:-}' });
      // Generated secrets are kept where both read them.
      expect(s.volumes).toEqual(['serverdata:/data']);
      // Players reach it through the proxy only; its operator port is published on this machine only.
      expect(s.ports).toEqual([`127.0.0.1:${{ 'game-server-1': 9101, 'game-server-2': 9102 }[name]}:9100`]);
    }
  });

  it('starts the second instance after the first is healthy, so migrations never race', () => {
    expect(services['game-server-1'].depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services['game-server-2'].depends_on).toEqual({ 'game-server-1': { condition: 'service_healthy' } });
  });

  it('mounts, in the proxy, Prometheus and Grafana, files that exist', () => {
    expect(services.proxy.image).toMatch(/^haproxy:2\.6/);
    expect(services.proxy.volumes).toEqual(['./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
    expect(services.proxy.ports).toEqual(['8080:8080']);
    expect(services['proxy-tls'].volumes).toEqual([
      './deploy/haproxy/haproxy-tls.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro',
      './deploy/haproxy/certs:/usr/local/etc/haproxy/certs:ro',
    ]);
    expect(services['proxy-tls'].ports).toEqual(['443:8443', '80:8080']);
    expect(services.prometheus.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
    expect(services.prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    for (const service of Object.values(services)) {
      for (const volume of (service.volumes ?? []) as string[]) {
        const source = volume.split(':')[0];
        if (source.startsWith('./')) expect([source, existsSync(join(repo, source))]).toEqual([source, true]);
      }
    }
  });
});
