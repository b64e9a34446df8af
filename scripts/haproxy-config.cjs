// Renders deploy/haproxy.cfg.template for a set of instances. It is CommonJS so that both the
// cluster script (ESM) and the jest tests (CommonJS) load the same renderer.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const TEMPLATE = join(__dirname, '..', 'deploy', 'haproxy.cfg.template');

/**
 * @param {{ bind: string, servers: { name: string, address: string }[], source?: string, tls?: { bind: string, crt: string } }} options
 *   `bind` is where the proxy listens (`127.0.0.1:8080`, `*:8080`).
 *   `servers` gives each instance's name and `host:port` (its public port), in a fixed order. The
 *   order numbers the instances, and the numbers place them on the hash ring, so the same list
 *   always maps a code to the same instance.
 *   `source` is the address the proxy connects to the instances from, when it must be one of its
 *   own, because the instances trust X-Forwarded-For from that address alone.
 *   `tls` says where the proxy also listens with TLS, and the PEM file (certificate, then its key)
 *   it presents there. With `tls`, plain HTTP is redirected to the TLS port.
 * @returns {string}
 */
function renderHaproxyConfig({ bind, servers, source, tls }) {
  if (source !== undefined && !/^[\d.]+$|^[\da-f:]+$/i.test(source)) throw new Error(`source must be an IP address, got '${source}'`);
  if (!/^[\w.*:-]+$/.test(bind)) throw new Error(`bind must be host:port, got '${bind}'`);
  if (tls && !/^[\w.*:-]+$/.test(tls.bind)) throw new Error(`tls.bind must be host:port, got '${tls.bind}'`);
  if (tls && !/^\/[\w./-]+\.pem$/.test(tls.crt)) throw new Error(`tls.crt must be an absolute path to a .pem file, got '${tls.crt}'`);
  if (servers.length === 0) throw new Error('at least one instance is needed');
  const lines = servers.map((s, i) => {
    if (!/^[A-Za-z0-9][\w.-]*$/.test(s.name)) throw new Error(`an instance name must be letters, digits, '.', '_' or '-', got '${s.name}'`);
    if (!/^[\w.-]+:\d+$/.test(s.address)) throw new Error(`an instance address must be host:port, got '${s.address}'`);
    return `    server ${s.name} ${s.address} id ${i + 1}${source ? ` source ${source}` : ''}`;
  });
  return readFileSync(TEMPLATE, 'utf8')
    .replace('{{bind}}', bind)
    .replace('{{tls}}', tls ? tlsLines(tls) : '')
    .replace('{{servers}}', lines.join('\n'));
}

/** The config lines that end TLS at the proxy. The instances behind it speak plain HTTP on the private network. */
function tlsLines({ bind, crt }) {
  return [
    '    # TLS ends here (HTTP/1.1, which WebSockets upgrade from); plain HTTP is sent to it, but for',
    "    # the proxy's own health check.",
    `    bind ${bind} ssl crt ${crt} alpn http/1.1`,
    '    http-request redirect scheme https code 301 unless { ssl_fc } || { path /haproxy/live }',
    '    http-request set-header X-Forwarded-Proto https if { ssl_fc }',
    '',
  ].join('\n');
}

/**
 * The compose stack's proxy config, naming its two instances by service name. deploy/haproxy/haproxy.cfg
 * is this config, and deploy/haproxy/haproxy-tls.cfg (the `tls` profile's proxy) is this config with `tls`.
 */
function composeHaproxyConfig({ tls = false } = {}) {
  return renderHaproxyConfig({
    bind: '*:8080',
    tls: tls ? { bind: '*:8443', crt: '/usr/local/etc/haproxy/certs/site.pem' } : undefined,
    servers: [
      { name: 'game-server-1', address: 'game-server-1:3000' },
      { name: 'game-server-2', address: 'game-server-2:3000' },
    ],
  });
}

module.exports = { renderHaproxyConfig, composeHaproxyConfig };

// `node scripts/haproxy-config.cjs compose > deploy/haproxy/haproxy.cfg` writes the compose config.
// `node scripts/haproxy-config.cjs compose-tls > deploy/haproxy/haproxy-tls.cfg` writes the TLS one.
if (require.main === module && process.argv[2] === 'compose') process.stdout.write(composeHaproxyConfig());
if (require.main === module && process.argv[2] === 'compose-tls') process.stdout.write(composeHaproxyConfig({ tls: true }));
