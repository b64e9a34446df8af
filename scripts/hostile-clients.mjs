#!/usr/bin/env node
// Runs hostile clients against one instance (issue 32). For --minutes, from many addresses, it
// mints spectator seats, floods sockets, looks up random codes, and floods joins and deck writes.
// Every request names a random client in X-Forwarded-For, which a server honours only from its
// trusted proxy. Every 10 s the script prints the server's RSS. At the end it prints what each
// surface was answered, and every refusal the server counted (game_limit_refusals_total).
//
//   node scripts/hostile-clients.mjs --url http://127.0.0.1:3000 --minutes 2 [--metrics URL] [--pid PID]
//
// With --pid, RSS is read from /proc/<pid>/status; otherwise from the server's own
// process_resident_memory_bytes. The script opens a few rooms of its own first, within the open rate.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values: opts } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    metrics: { type: 'string' },
    minutes: { type: 'string', default: '2' },
    pid: { type: 'string' },
    // How many workers run at once on each surface.
    workers: { type: 'string', default: '4' },
    // How many sockets the flood holds open at once.
    sockets: { type: 'string', default: '2000' },
  },
});
const BASE = opts.url.replace(/\/$/, '');
const METRICS = (opts.metrics ?? BASE).replace(/\/$/, '');
const END = Date.now() + Number(opts.minutes) * 60_000;
const WORKERS = Number(opts.workers);
const SOCKET_TARGET = Number(opts.sockets);
const say = (msg) => process.stdout.write(`${msg}\n`);

/** A random client: IPv4, or IPv6 in many /48s and /64s. */
function spoofed() {
  if (randomInt(2) === 0) return `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const g = () => randomInt(0x10000).toString(16);
  return `2001:db8:${g()}:${g()}::${g()}`;
}

const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const randomCode = () => Array.from({ length: 6 }, () => CODE_LETTERS[randomInt(CODE_LETTERS.length)]).join('');

/** What each surface was answered: status (or error) → count. */
const answers = {};
function tally(surface, status) {
  const s = (answers[surface] ??= {});
  s[status] = (s[status] ?? 0) + 1;
}

async function call(surface, method, path, body, headers = {}) {
  try {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed(), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    tally(surface, res.status);
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  } catch (err) {
    tally(surface, err.cause?.code ?? 'error');
    return { status: 0, body: {} };
  }
}

async function metricsText() {
  const res = await fetch(`${METRICS}/metrics`);
  return res.ok ? await res.text() : '';
}

function metricLines(text, name) {
  return text.split('\n').filter((l) => l.startsWith(name));
}

async function rssBytes() {
  if (opts.pid) {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${opts.pid}/status`, 'utf8'))?.[1];
    return Number(kb) * 1024;
  }
  const line = metricLines(await metricsText(), 'process_resident_memory_bytes ')[0];
  return line ? Number(line.split(' ')[1]) : NaN;
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Runs `step` in a loop until the end, `WORKERS` at a time. */
async function flood(step) {
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < END) await step();
    }),
  );
}

const DECK = { name: 'Hostile', questions: [{ text: 'Q?', choices: ['a', 'b'], correct: 0 }] };

async function main() {
  // The script opens a few real rooms to aim at. The open rate allows this burst from this address.
  const rooms = [];
  for (let i = 0; i < 5; i++) {
    const r = await call('open', 'POST', '/api/rooms', { hostName: 'Host', questionCount: 3, secondsPerQuestion: 30 });
    if (r.status === 201) rooms.push(r.body);
  }
  if (rooms.length === 0) throw new Error(`could not open a room at ${BASE}`);
  const room = () => rooms[randomInt(rooms.length)];

  const samples = [];
  const sample = async () => {
    const rss = await rssBytes().catch(() => NaN);
    samples.push(rss);
    say(`t=${Math.round((Date.now() - started) / 1000)}s rss=${mib(rss)} sockets=${open.size}`);
  };
  const started = Date.now();
  const open = new Set();
  const timer = setInterval(() => void sample(), 10_000);
  await sample();

  const socketFlood = async () => {
    while (Date.now() < END) {
      if (open.size >= SOCKET_TARGET) {
        // Hold the sockets open, but close a few so that new upgrades keep coming.
        const some = [...open].slice(0, 50);
        for (const ws of some) ws.terminate();
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const seat = await call('spectators', 'POST', `/api/rooms/${room().code}/spectators`, {});
      // When the server refused the seat, the socket uses a forged token. Either way, the upgrade refuses it.
      const token = seat.body.spectatorToken ?? 'forged.token';
      await new Promise((resolve) => {
        const ws = new WebSocket(`${BASE.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`);
        ws.once('open', () => {
          tally('socket', 'open');
          open.add(ws);
          ws.once('close', () => open.delete(ws));
          resolve();
        });
        ws.once('unexpected-response', (_req, res) => {
          tally('socket', res.statusCode);
          res.resume();
          resolve();
        });
        ws.once('error', (err) => {
          tally('socket', err.code ?? 'error');
          resolve();
        });
        ws.on('message', () => undefined);
      });
    }
  };

  await Promise.all([
    flood(() => call('spectators', 'POST', `/api/rooms/${room().code}/spectators`, {})),
    flood(() => call('lookups', 'GET', `/api/rooms/${randomCode()}`)),
    flood(() => call('lookups', 'GET', `/api/tables/${randomCode()}`)),
    flood(() => call('joins', 'POST', `/api/rooms/${room().code}/players`, { name: `p${randomInt(1e9)}` })),
    flood(() => call('decks', 'POST', '/api/decks', DECK)),
    flood(() => call('opens', 'POST', '/api/rooms', { hostName: 'H' })),
    ...Array.from({ length: WORKERS }, socketFlood),
  ]);
  clearInterval(timer);
  await sample();
  for (const ws of open) ws.terminate();

  const finite = samples.filter(Number.isFinite);
  say(`\nRSS: first ${mib(finite[0])}, max ${mib(Math.max(...finite))}, last ${mib(finite.at(-1))} (${finite.length} samples)`);
  say('\nanswers by surface (status: count):');
  for (const [surface, byStatus] of Object.entries(answers)) say(`  ${surface}: ${JSON.stringify(byStatus)}`);
  say('\nrefusals the server counted:');
  for (const line of metricLines(await metricsText(), 'game_limit_refusals_total{')) say(`  ${line}`);
  for (const line of metricLines(await metricsText(), 'game_rooms_active')) say(`  ${line}`);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
