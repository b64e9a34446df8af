#!/usr/bin/env node
// Takes screenshots of the operator console's three views (docs/screenshots/*.png) in headless
// Chromium, against a running server while real games are played on it. The script seats a few
// rooms of bots over the public API and lets them play for a while, so that the charts have history.
//
//   node scripts/screenshots.mjs --url http://localhost:3300 --token dev
//
// Options: --out DIR (default docs/screenshots); --warmup SECONDS (default 60), how long the bots
// play before the first picture; --hold-db POSTGRES_URL, the server's database. With --hold-db the
// script locks the answers table for a moment, so that a mailbox visibly backs up in the rooms view.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.SERVER_URL ?? 'http://localhost:3000' },
    token: { type: 'string', default: process.env.ADMIN_TOKEN },
    out: { type: 'string', default: 'docs/screenshots' },
    warmup: { type: 'string', default: '60' },
    'hold-db': { type: 'string' },
  },
});
if (!args.token) {
  process.stderr.write(
    'usage: node scripts/screenshots.mjs --url http://localhost:3000 --token ADMIN_TOKEN [--out DIR] [--warmup S] [--hold-db URL]\n',
  );
  process.exit(2);
}
const base = args.url.replace(/\/$/, '');
const outDir = resolve(args.out);
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const random = (min, max) => min + Math.random() * (max - min);
const log = (msg) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);

async function post(path, body) {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A seat on a socket that plays like a person: answers each question after a while, usually right-ish. */
class Bot {
  constructor(name, token, { answers = true, slow = 1 } = {}) {
    this.name = name;
    this.token = token;
    this.answers = answers;
    this.slow = slow;
    this.nextId = 1;
  }

  connect() {
    return new Promise((resolveOpen, reject) => {
      this.ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(this.token)}`);
      this.ws.once('open', () => resolveOpen(this));
      this.ws.once('error', reject);
      this.ws.on('error', () => undefined);
      this.ws.on('message', (data) => this.onFrame(JSON.parse(data.toString())));
    });
  }

  send(type, data = {}) {
    const id = `${this.name}-${this.nextId++}`;
    if (type === 'room.answer') this.lastAnswerId = id;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ id, type, data }));
  }

  /** Answers the open question again (or for the first time); the room decides which. */
  answerNow() {
    if (this.question) this.send('room.answer', { question: this.question.index, choice: 0 });
  }

  /** Resolves with a question that is open and that this seat has not answered yet. */
  async unansweredQuestion(timeoutMs) {
    const until = Date.now() + timeoutMs;
    while (!this.question || this.answeredIndex === this.question.index) {
      if (Date.now() > until) throw new Error(`${this.name} saw no new question within ${timeoutMs} ms`);
      await sleep(100);
    }
    return this.question;
  }

  onFrame(frame) {
    if (frame.type === 'question.open') this.question = frame.data;
    if (frame.type === 'question.closed') this.question = null;
    if (frame.type === 'reply' && frame.status === 200 && this.question && frame.id === this.lastAnswerId)
      this.answeredIndex = this.question.index;
    if (frame.type === 'question.open' && this.answers) {
      const { index, choices } = frame.data;
      setTimeout(
        () => this.send('room.answer', { question: index, choice: Math.floor(Math.random() * choices.length) }),
        random(800, 9000) * this.slow,
      );
    }
    if (frame.type === 'rematch.open' && this.answers) setTimeout(() => this.send('room.rematch', { vote: true }), random(500, 3000));
  }

  close() {
    this.ws?.close(1000);
  }
}

const NAMES = ['Ada', 'Bruno', 'Chloé', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Luca', 'Maya', 'Noor'];

async function openRoom({ host, players, start, settings, away = 0, idle = [] }) {
  const room = await post('/api/rooms', { hostName: host, questionCount: 10, secondsPerQuestion: 20, revealSeconds: 3, ...settings });
  const hostBot = await new Bot(host, room.hostToken, { answers: false }).connect();
  const bots = [];
  for (const name of players) {
    const seat = await post(`/api/rooms/${room.code}/players`, { name });
    bots.push({ name, playerId: seat.playerId, bot: await new Bot(name, seat.playerToken).connect() });
  }
  // These seats never answer, such as one to kick on camera. They join now because a join after the
  // start is refused.
  for (const name of idle) {
    const seat = await post(`/api/rooms/${room.code}/players`, { name });
    bots.push({ name, playerId: seat.playerId, bot: await new Bot(name, seat.playerToken, { answers: false }).connect() });
  }
  // Some players drop off, as phones do. Their seats stay, shown as away.
  for (const { bot } of bots.slice(0, players.length).slice(players.length - away)) bot.close();
  if (start) hostBot.send('room.start');
  return { code: room.code, host: hostBot, bots };
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  log(`seating rooms on ${base}`);
  const rooms = [
    // Latecomer never answers by itself, so its answer is always a new one that can be held on a lock.
    await openRoom({
      host: 'Quizmaster Kim',
      players: NAMES.slice(0, 7),
      start: true,
      away: 1,
      idle: ['Latecomer'],
      settings: { questionCount: 15 },
    }),
    await openRoom({ host: 'Team Orbit', players: NAMES.slice(7, 11), start: true, settings: { secondsPerQuestion: 12 } }),
    await openRoom({ host: 'Friday pub', players: NAMES.slice(11, 14), start: false }),
    await openRoom({
      host: 'Lab 4',
      players: ['Pat', 'Quinn', 'Rae', 'Sol', 'Tove'],
      start: true,
      settings: { secondsPerQuestion: 8, revealSeconds: 1 },
    }),
  ];
  const [featured] = rooms;
  const latecomer = featured.bots.find((b) => b.name === 'Latecomer').bot;
  const everyBot = rooms.flatMap((r) => r.bots.map((b) => b.bot));

  /**
   * Makes a database stall, as a slow disk or a long lock would cause. The answers table is locked,
   * Latecomer's answer waits on it, and every other command to that room queues in its mailbox
   * until `during` has run. It stalls only with --hold-db.
   */
  async function stall(during) {
    if (!args['hold-db']) return during();
    await latecomer.unansweredQuestion(30_000);
    const release = await holdAnswers(args['hold-db']);
    try {
      latecomer.answerNow();
      await sleep(200);
      for (const bot of everyBot) if (bot !== latecomer) bot.answerNow();
      return await during();
    } finally {
      await release();
    }
  }

  const warmupMs = Number(args.warmup) * 1000;
  log(`bots are playing; warming up ${warmupMs / 1000} s so the charts have history`);

  const executablePath = CHROMIUM.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium is missing: apt-get install -y chromium');
  const userDataDir = mkdtempSync(join(tmpdir(), 'console-shots-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: 'dark',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // The console collects chart samples while it is open, so it stays open for the whole warm-up.
    // The script signs in through the form, as an operator would, so the token never goes into a URL.
    await page.goto(`${base}/admin/`);
    await page.getByLabel('Admin token').fill(args.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('meter', { name: 'Connections open' }).waitFor({ timeout: 15_000 });
    // A short stall comes two thirds of the way in, so that the charts show what one looks like.
    await sleep(warmupMs * 0.65);
    await stall(() => sleep(2500));
    await sleep(warmupMs * 0.35);

    await page.screenshot({ path: join(outDir, 'overview.png'), fullPage: true });
    log('overview.png');

    await page.getByRole('link', { name: 'Rooms', exact: true }).click();
    await page.locator(`tr[data-room-code="${featured.code}"]`).waitFor({ timeout: 10_000 });
    await stall(async () => {
      if (args['hold-db']) await page.locator(`.rooms-table tr.deepest[data-room-code="${featured.code}"]`).waitFor({ timeout: 10_000 });
      await sleep(1200);
      await page.screenshot({ path: join(outDir, 'rooms.png'), fullPage: true });
      log('rooms.png');
    });

    await page.locator(`tr[data-room-code="${featured.code}"] a`).click();
    await page.getByRole('region', { name: 'Players' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Kick Latecomer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Kick Latecomer' }).click();
    await page.getByText(/Kicked Latecomer/).waitFor({ timeout: 10_000 });
    await sleep(1500);
    await page.screenshot({ path: join(outDir, 'room-detail.png'), fullPage: true });
    log('room-detail.png');
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
    for (const room of rooms) {
      room.host.close();
      for (const { bot } of room.bots) bot.close();
    }
  }
  log(`done: ${outDir}`);
}

/** Locks the answers table from another connection; returns the release. */
async function holdAnswers(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE answers IN EXCLUSIVE MODE');
  return async () => {
    await client.query('COMMIT');
    await client.end();
  };
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
