// Renders deploy/haproxy.cfg.template for a set of instances. CommonJS so that both the cluster
// script (ESM) and the jest tests (CommonJS) load the one renderer.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const TEMPLATE = join(__dirname, '..', 'deploy', 'haproxy.cfg.template');

/**
 * @param {{ bind: string, servers: { name: string, address: string }[], source?: string }} options
 *   bind: where the proxy listens (`127.0.0.1:8080`, `*:8080`); servers: each instance's
 *   name and `host:port`, in a fixed order (the order numbers them, and the numbers place
 *   them on the hash ring, so the same list always maps a code to the same instance);
 *   source: the address the proxy connects to the instances from, when it must be one of its
 *   own (the instances trust X-Forwarded-For from that address alone).
 * @returns {string}
 */
function renderHaproxyConfig({ bind, servers, source }) {
  if (source !== undefined && !/^[\d.]+$|^[\da-f:]+$/i.test(source)) throw new Error(`source must be an IP address, got '${source}'`);
  if (!/^[\w.*:-]+$/.test(bind)) throw new Error(`bind must be host:port, got '${bind}'`);
  if (servers.length === 0) throw new Error('at least one instance is needed');
  const lines = servers.map((s, i) => {
    if (!/^[A-Za-z0-9][\w.-]*$/.test(s.name)) throw new Error(`an instance name must be letters, digits, '.', '_' or '-', got '${s.name}'`);
    if (!/^[\w.-]+:\d+$/.test(s.address)) throw new Error(`an instance address must be host:port, got '${s.address}'`);
    return `    server ${s.name} ${s.address} id ${i + 1}${source ? ` source ${source}` : ''}`;
  });
  return readFileSync(TEMPLATE, 'utf8').replace('{{bind}}', bind).replace('{{servers}}', lines.join('\n'));
}

/** The compose stack's proxy: its two instances by service name. deploy/haproxy/haproxy.cfg is this. */
function composeHaproxyConfig() {
  return renderHaproxyConfig({
    bind: '*:8080',
    servers: [
      { name: 'game-server-1', address: 'game-server-1:3000' },
      { name: 'game-server-2', address: 'game-server-2:3000' },
    ],
  });
}

module.exports = { renderHaproxyConfig, composeHaproxyConfig };

// `node scripts/haproxy-config.cjs compose > deploy/haproxy/haproxy.cfg` writes the compose one.
if (require.main === module && process.argv[2] === 'compose') process.stdout.write(composeHaproxyConfig());
