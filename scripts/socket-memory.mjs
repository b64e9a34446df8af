#!/usr/bin/env node
// Measures what an idle seated socket costs the server. The script starts the built server on a
// fresh embedded PostgreSQL and reads its RSS with no room open. It then opens ROOMS trivia rooms
// with SEATS players and a host each, connects every seat, waits until each socket has its first
// room.state, lets the process settle, and reads RSS again. It prints (RSS - idle) / sockets. With
// --heap-snapshot, the server writes a heap snapshot (node --heapsnapshot-signal) with every socket
// open.
//
// Usage: node scripts/socket-memory.mjs [--rooms 2000] [--seats 4] [--wire json|compact-v1|compact-v2|compact-v3]
//          [--server dist/apps/game-server/apps/game-server/src/main.js] [--heap-snapshot DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

const args = process.argv.slice(2);
const opt = (name, d) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : d;
};
const rooms = Number(opt('rooms', 2000));
const seats = Number(opt('seats', 4));
const wire = opt('wire', 'json');
const serverJs = resolve(opt('server', 'dist/apps/game-server/apps/game-server/src/main.js'));
const snapshotDir = opt('heap-snapshot');
const settleMs = Number(opt('settle-ms', 5000));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'socket-memory-'));
const nodeArgs = snapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : [];
const server = spawn(process.execPath, [...nodeArgs, serverJs], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'warn',
    // It measures memory, not limits: it opens and seats thousands from one address, as fast as it can.
    OPEN_RATE_PER_MINUTE: '0',
    JOINS_PER_MINUTE: '0',
    INSTANCE_OPENS_PER_MINUTE: '0',
    INSTANCE_JOINS_PER_MINUTE: '0',
    OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS: '0',
    MAX_LIVE_ROOMS: '0',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => server.kill('SIGTERM');
process.on('exit', stop);

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/health/ready`)).ok) break;
  } catch {
    // The server is not listening yet, so try again.
  }
  if (i > 600) throw new Error('the server did not become ready');
  await sleep(100);
}
await sleep(2000);
const idle = rssKb(server.pid);
const heap = async () => {
  const text = await (await fetch(`${base}/metrics`)).text();
  const g = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
  return {
    heapUsedMb: +g('nodejs_heap_size_used_bytes').toFixed(1),
    heapTotalMb: +g('nodejs_heap_size_total_bytes').toFixed(1),
    externalMb: +g('nodejs_external_memory_bytes').toFixed(1),
  };
};
const idleHeap = await heap();

const post = async (path, body) => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
};
const connect = (token) =>
  new Promise((res, rej) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${encodeURIComponent(token)}&wire=${wire}`);
    ws.once('message', () => res(ws));
    ws.once('error', rej);
  });

const sockets = [];
const openRoom = async (n) => {
  const room = await post('/api/rooms', { hostName: `host ${n}` });
  const tokens = [room.hostToken];
  for (let s = 0; s < seats; s++) tokens.push((await post(`/api/rooms/${room.code}/players`, { name: `p${s}` })).playerToken);
  for (const t of tokens) sockets.push(await connect(t));
};
const started = Date.now();
for (let n = 0; n < rooms; n += 20) await Promise.all(Array.from({ length: Math.min(20, rooms - n) }, (_, k) => openRoom(n + k)));
const openedS = (Date.now() - started) / 1000;
await sleep(settleMs);
const full = rssKb(server.pid);
const perSocket = (full - idle) / sockets.length;
console.log(
  JSON.stringify({
    rooms,
    seats,
    wire,
    sockets: sockets.length,
    idleRssMb: +(idle / 1024).toFixed(1),
    rssMb: +(full / 1024).toFixed(1),
    kbPerSocket: +perSocket.toFixed(1),
    openedSeconds: openedS,
    idle: idleHeap,
    loaded: await heap(),
  }),
);
if (snapshotDir) {
  server.kill('SIGUSR2');
  await sleep(Number(opt('snapshot-wait-ms', 30000)));
}
for (const ws of sockets) ws.terminate();
stop();
process.exit(0);
