#!/usr/bin/env node
// Reads a V8 .cpuprofile (node --cpu-prof) and prints where the busy time went. Each sample's self
// time is charged to the part of the server that its function belongs to, judged by the function's
// file. `--window A:B` keeps only the samples from A to B seconds after the profile started. That
// picks out, say, a ladder's hold window, since the profile also holds the rooms' opening.
// Usage: node scripts/profile-shares.mjs FILE.cpuprofile [--top N] [--window A:B]
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/profile-shares.mjs FILE.cpuprofile [--top N]');
  process.exit(2);
}
const flag = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const top = Number(flag('--top') ?? 25);
const [fromS, toS] = (flag('--window') ?? '0:1e9').split(':').map(Number);
const profile = JSON.parse(readFileSync(file, 'utf8'));

// The first match wins, so the order puts the narrower paths first.
const PARTS = [
  ['GC', (n) => n.functionName === '(garbage collector)'],
  ['idle', (n) => n.functionName === '(idle)'],
  ['native, unattributed (program)', (n) => n.functionName === '(program)'],
  ['ws: reading frames', (u) => /node_modules\/ws\/lib\/(receiver|buffer-util|validation)/.test(u)],
  ['ws: writing frames', (u) => /node_modules\/ws\/lib\/(sender|websocket)\.js/.test(u)],
  ['ws: other', (u) => /node_modules\/ws\//.test(u)],
  ['pg driver', (u) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-)/.test(u)],
  ['TypeORM', (u) => /node_modules\/typeorm\//.test(u)],
  ['prom-client (metrics)', (u) => /node_modules\/prom-client\//.test(u)],
  ['Nest, rxjs, express', (u) => /node_modules\/(@nestjs|rxjs|express|router|body-parser)/.test(u)],
  ['gateway (parse, encode, send)', (u) => /libs\/gateway\//.test(u)],
  ['protocol (frames, codecs)', (u) => /libs\/protocol\//.test(u)],
  ['engine (actor, commit pipeline)', (u) => /libs\/room-engine\//.test(u)],
  ['games (rules, projection)', (u) => /libs\/games\//.test(u)],
  ['persistence (journal, statements)', (u) => /libs\/persistence\//.test(u)],
  ['observability (our metrics)', (u) => /libs\/observability\//.test(u)],
  ['server app', (u) => /apps\/game-server\//.test(u)],
  ['node: net, streams, sockets', (u) => /node:(net|stream|internal\/streams|internal\/stream_base_commons|internal\/net)/.test(u)],
  ['node: timers, event loop', (u) => /node:(timers|internal\/timers|internal\/process\/task_queues|events)/.test(u)],
  ['node: other', (u) => /^node:/.test(u)],
  ['other modules', (u) => /node_modules\//.test(u)],
  ['other', () => true],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const partOf = new Map();
for (const n of profile.nodes) {
  const cf = n.callFrame;
  const probe = { functionName: cf.functionName };
  let part = 'other';
  for (const [name, test] of PARTS) {
    const hit = test.length === 1 && name.match(/^(GC|idle|native)/) ? test(probe) : test(cf.url || '');
    if (hit) {
      part = name;
      break;
    }
  }
  partOf.set(n.id, part);
}

// timeDeltas[i] is the time before sample i, and it is charged to sample i's node.
const selfUs = new Map();
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at < fromS * 1e6 || at > toS * 1e6) continue;
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
}
const parts = new Map();
const fns = new Map();
let busy = 0,
  idle = 0;
for (const [id, us] of selfUs) {
  const part = partOf.get(id);
  if (part === 'idle') {
    idle += us;
    continue;
  }
  busy += us;
  parts.set(part, (parts.get(part) ?? 0) + us);
  const cf = byId.get(id).callFrame;
  const key = `${cf.functionName || '(anonymous)'} ${(cf.url || '').replace(/^.*\/(node_modules|libs|apps)\//, '$1/')}:${cf.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}
const s = (us) => (us / 1e6).toFixed(2);
const pct = (us) => ((100 * us) / busy).toFixed(1);
console.log(`profile: ${file}`);
console.log(`busy ${s(busy)} s, idle ${s(idle)} s (${((100 * busy) / (busy + idle)).toFixed(1)}% busy)\n`);
console.log('| part | busy s | share |\n| --- | ---: | ---: |');
for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`| ${part} | ${s(us)} | ${pct(us)}% |`);
console.log(`\n| top functions by self time | busy s | share |\n| --- | ---: | ---: |`);
for (const [fn, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| \`${fn}\` | ${s(us)} | ${pct(us)}% |`);
