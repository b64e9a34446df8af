#!/usr/bin/env node
// Measures what checking one `room.answer` costs, in ns per parse, three ways. The first is the
// hand-written check the games had before the schemas (copied here as the baseline). The second is
// zod's safeParse of the schema. The third is checkData, the safeParse the games run now, which
// turns the first issue into a message. The client package must be built first
// (`npm run build -w packages/client`). Usage: node scripts/parse-cost.mjs [parses]
import { checkData } from '../packages/client/dist/index.js';
import { TRIVIA_COMMANDS } from '../packages/client/dist/games/trivia.js';

const N = Number(process.argv[2] ?? 1e6);
const schema = TRIVIA_COMMANDS['room.answer'];

function handWritten(d) {
  const index = (field) => {
    const v = d[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`data.${field} must be a whole number from 0`);
    return v;
  };
  if (typeof d !== 'object' || d === null || Array.isArray(d)) throw new Error('data must be a JSON object');
  return { question: index('question'), choice: index('choice') };
}

const arms = {
  'hand-written (before)': (d) => handWritten(d),
  'zod safeParse': (d) => schema.safeParse(d),
  'checkData (after)': (d) => checkData(schema, d),
};

// The inputs are fresh objects, as JSON.parse makes them for each frame. They are built before the clock starts.
const inputs = Array.from({ length: 1024 }, (_, i) => ({ question: i % 10, choice: i % 4 }));
let sink = 0;
function run(fn, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink ^= fn(inputs[i & 1023]) ? 1 : 0;
  return Number(process.hrtime.bigint() - t0) / n;
}
for (const fn of Object.values(arms)) run(fn, N / 10); // Every arm is warmed up first.
for (const round of [1, 2, 3]) {
  for (const [name, fn] of Object.entries(arms))
    process.stdout.write(`round ${round}  ${name.padEnd(24)} ${run(fn, N).toFixed(1)} ns/parse\n`);
}
process.stdout.write(`(${N} parses per arm; node ${process.version}; sink ${sink})\n`);
