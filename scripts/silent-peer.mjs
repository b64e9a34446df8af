#!/usr/bin/env node
// Measures how long a server keeps a socket whose peer vanished (issue 31: within 60 s with the
// defaults), and that it keeps a quiet one that answers pings. A child process opens a spectator
// socket and is stopped with SIGSTOP: its kernel still acknowledges TCP, but nothing reads the
// server's pings or answers them, as with a phone whose app was frozen or whose network went
// away. A second spectator socket, in this process, sends nothing but answers pings as every
// WebSocket client does. The script reads the server's game_ws_silent_closes_total once a second.
//
//   node scripts/silent-peer.mjs --url http://127.0.0.1:3000 [--metrics URL] [--seconds 90]
//
// It prints when the stopped peer's socket was closed, counted from the moment it opened (the
// last time the server heard from it), and whether the quiet socket is still open at the end.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values: opts } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    metrics: { type: 'string' },
    seconds: { type: 'string', default: '90' },
  },
});
const BASE = opts.url.replace(/\/$/, '');
const METRICS = (opts.metrics ?? BASE).replace(/\/$/, '');
const WS = BASE.replace(/^http/, 'ws');
const say = (msg) => process.stdout.write(`${msg}\n`);

async function post(path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function silentCloses() {
  const text = await (await fetch(`${METRICS}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('game_ws_silent_closes_total'));
  if (!line) throw new Error(`${METRICS}/metrics has no game_ws_silent_closes_total`);
  return Number(line.split(' ').at(-1));
}

/** A child process that opens a socket with `token`, says "open" once it is, and then only waits. */
function stoppablePeer(token) {
  const code = `const W=require('ws');const w=new W(process.argv[1]);w.on('open',()=>process.stdout.write('open\\n'));setInterval(()=>{},1e9);`;
  const child = spawn(process.execPath, ['-e', code, `${WS}/ws?token=${encodeURIComponent(token)}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (c) => reject(new Error(`the peer exited (${c}) before its socket opened`)));
  });
}

async function main() {
  const { code } = await post('/api/rooms', { hostName: 'Host', questionCount: 1 });
  const [stopped, quiet] = [await post(`/api/rooms/${code}/spectators`, {}), await post(`/api/rooms/${code}/spectators`, {})];
  const before = await silentCloses();

  const peer = await stoppablePeer(stopped.spectatorToken);
  const opened = Date.now();
  peer.kill('SIGSTOP');
  say(`room ${code}: the peer's socket opened and its process (pid ${peer.pid}) was stopped`);

  const live = new WebSocket(`${WS}/ws?token=${encodeURIComponent(quiet.spectatorToken)}`);
  let liveClosed = null;
  live.once('close', (c) => (liveClosed = c));
  await new Promise((resolve, reject) => (live.once('open', resolve), live.once('error', reject)));

  let closedAfter = null;
  const end = opened + Number(opts.seconds) * 1000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 1000));
    if (closedAfter === null && (await silentCloses()) > before) {
      closedAfter = (Date.now() - opened) / 1000;
      say(`the stopped peer's socket was closed as silent ${closedAfter.toFixed(1)} s after it opened (read within 1 s)`);
    }
  }
  peer.kill('SIGKILL');
  say(
    closedAfter === null ? `the stopped peer's socket was NOT closed within ${opts.seconds} s` : `closed after ${closedAfter.toFixed(1)} s`,
  );
  say(
    liveClosed === null
      ? `the quiet socket that answers pings is still open after ${opts.seconds} s`
      : `the quiet socket was closed with ${liveClosed}`,
  );
  live.close();
  process.exitCode = closedAfter !== null && liveClosed === null ? 0 : 1;
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
