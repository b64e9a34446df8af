// A game developer's first program, run from a folder where only the packed @game-rooms/client
// (and ws, Node 20's WebSocket) is installed: open a trivia room over HTTP, seat two players,
// play its one question to the end, and print what happened as one JSON line.
// Usage: node play-trivia.mjs http://127.0.0.1:PORT
import { ReconnectingClient } from '@game-rooms/client';
import { TRIVIA_EVENTS } from '@game-rooms/client/trivia';
import { WIRE_CODES } from '@game-rooms/client/wire-codes';
import WebSocket from 'ws';

const base = process.argv[2];
const wsBase = base.replace(/^http/, 'ws');
const TIMEOUT_MS = 15_000;

async function post(path, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Sessions live in memory here; a browser would pass sessionStorage. */
function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

const malformed = [];
function seat(name, token, wire = {}) {
  const client = new ReconnectingClient({
    url: (t) => `${wsBase}/ws?token=${encodeURIComponent(t)}`,
    storage: memoryStorage(),
    storageKey: `seat:${name}`,
    token,
    // Node 20 has no WebSocket global: the client takes any socket of the browser's shape.
    createSocket: (url) => new WebSocket(url),
    ...wire,
  });
  const seen = [];
  const waiters = [];
  for (const type of Object.keys(TRIVIA_EVENTS)) {
    client.on(type, (data) => {
      // Every event must be what the package's schema says it is.
      const checked = TRIVIA_EVENTS[type].safeParse(data);
      if (!checked.success) malformed.push({ seat: name, type, issues: checked.error.issues });
      seen.push({ type, data });
      for (const w of [...waiters])
        if (w.type === type) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(data);
        }
    });
  }
  /** The first `type` event not yet taken, waiting for it if it has not come. */
  const next = (type) => {
    const i = seen.findIndex((e) => e.type === type);
    if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0].data);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no ${type} within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
      waiters.push({
        type,
        resolve: (d) => {
          clearTimeout(timer);
          seen.splice(
            seen.findIndex((e) => e.data === d),
            1,
          );
          resolve(d);
        },
      });
    });
  };
  client.start();
  return { client, next, seen };
}

const room = await post('/api/rooms', { hostName: 'Host', questionCount: 1, secondsPerQuestion: 10, revealSeconds: 0 });
const ann = await post(`/api/rooms/${room.code}/players`, { name: 'Ann' });
const bob = await post(`/api/rooms/${room.code}/players`, { name: 'Bob' });
// The host's screen asks for the smallest wire; the client decodes it back to the same events.
const host = seat('host', room.hostToken, { wire: 'compact-v2', codes: WIRE_CODES });
const players = [seat('Ann', ann.playerToken), seat('Bob', bob.playerToken)];
const states = [];
for (const s of [host, ...players]) states.push(await s.next('room.state'));

const start = await host.client.send('room.start');
const questions = await Promise.all(players.map((p) => p.next('question.open')));
const q = questions[0];
// Ann picks the first choice and Bob the second: exactly one of them can be right. The refusals
// come while the question is still open (it closes once everyone has answered).
const annAnswer = await players[0].client.send('room.answer', { question: q.index, choice: 0 });
const again = await players[0].client.send('room.answer', { question: q.index, choice: 1 });
const bad = await players[1].client.send('room.answer', { question: q.index, choice: -1 });
const spectatorLike = await host.client.send('room.answer', { question: q.index, choice: 0 });
const bobAnswer = await players[1].client.send('room.answer', { question: q.index, choice: 1 });
const answers = [annAnswer, bobAnswer];
const closed = await host.next('question.closed');
const finished = await host.next('game.finished');
for (const s of [host, ...players]) s.client.close();

process.stdout.write(
  `${JSON.stringify({
    code: room.code,
    playerIds: [ann.playerId, bob.playerId],
    start: start.status,
    question: { index: q.index, choices: q.choices.length },
    answers: answers.map((r) => r.status),
    again: { status: again.status, code: again.error?.code },
    bad: { status: bad.status, message: bad.error?.message },
    hostAnswer: { status: spectatorLike.status, code: spectatorLike.error?.code },
    wires: states.map((st) => st.wire),
    closed,
    finished,
    malformed,
  })}\n`,
);
