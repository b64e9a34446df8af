import { readFileSync } from 'node:fs';
import { wireProfileOf, WIRE_PROFILES, WireDecodeError } from '@app/protocol';
import { decodeLines } from './decode';
import { measureBytesPerAnswer } from './measure';
import { bytesPerHand, recordTable } from './table-recording';

const USAGE = `Usage:
  npm run wire -- decode --profile <${WIRE_PROFILES.join('|')}> [FILE]
      FILE (or stdin): the frames one socket received, one per line, from its first;
      prints the JSON frames they stand for, one per line.
  npm run wire -- measure --url http://127.0.0.1:3000 [--seats 4] [--questions 6]
      plays one trivia room on a running server with a socket per profile per viewer and
      prints the bytes per answer of each profile, against JSON in the same run.
  npm run wire -- measure --game cards --url http://127.0.0.1:3000 [--hands 30] [--bots 5] [--seed 7]
      plays one card table with the human and a spectator each on a socket per profile and
      prints the bytes per hand of each profile by kind, against JSON in the same run.
`;

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [mode, ...rest] = argv;
  if (mode === 'decode') {
    const profile = wireProfileOf(option(rest, 'profile'));
    if (!profile) return usage(`--profile must be one of ${WIRE_PROFILES.join(', ')}`);
    const file = rest.filter((a, i) => !a.startsWith('--') && rest[i - 1] !== '--profile')[0];
    const text = readFileSync(file && file !== '-' ? file : 0, 'utf8');
    for (const line of decodeLines(profile, text)) process.stdout.write(line + '\n');
    return 0;
  }
  if (mode === 'measure') {
    const url = option(rest, 'url');
    if (!url) return usage('--url is required');
    const game = option(rest, 'game') ?? 'trivia';
    if (game === 'cards') return measureTable(url, rest);
    if (game !== 'trivia') return usage(`--game must be trivia or cards`);
    const result = await measureBytesPerAnswer(url, Number(option(rest, 'seats') ?? 4), Number(option(rest, 'questions') ?? 6));
    const json = result.perAnswer.json;
    for (const [wire, bytes] of Object.entries(result.perAnswer)) {
      process.stdout.write(`${wire.padEnd(11)} ${String(bytes).padStart(8)} bytes per answer  ${((bytes / json) * 100).toFixed(1)}% of json\n`);
    }
    process.stdout.write(`(${result.answers} answers)\n`);
    return 0;
  }
  return usage(mode ? `unknown mode '${mode}'` : undefined);
}

async function measureTable(url: string, rest: string[]): Promise<number> {
  const hands = Number(option(rest, 'hands') ?? 30);
  const bots = Number(option(rest, 'bots') ?? 5);
  const seed = Number(option(rest, 'seed') ?? 7);
  if (![hands, bots, seed].every(Number.isInteger) || hands < 1 || bots < 1 || bots > 8) return usage('--hands (1 or more), --bots (1-8) and --seed are whole numbers');
  const recording = await recordTable(url, { hands, bots, seed });
  const { perHand } = bytesPerHand(recording);
  const json = perHand.json.total;
  const kinds = [...new Set(WIRE_PROFILES.flatMap((w) => Object.keys(perHand[w].byKind)))].sort((a, b) => (perHand.json.byKind[b] ?? 0) - (perHand.json.byKind[a] ?? 0));
  const cell = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(1)).padStart(11);
  process.stdout.write(`bytes per hand, a table of ${bots + 1}, the human's and a spectator's sockets (${hands} hands, seed ${seed})\n\n`);
  process.stdout.write(`${'kind'.padEnd(17)}${WIRE_PROFILES.map((w) => w.padStart(11)).join('')}\n`);
  for (const kind of kinds) process.stdout.write(`${kind.padEnd(17)}${WIRE_PROFILES.map((w) => cell(perHand[w].byKind[kind])).join('')}\n`);
  for (const row of ['human', 'spectator', 'total'] as const) process.stdout.write(`${row.padEnd(17)}${WIRE_PROFILES.map((w) => cell(perHand[w][row])).join('')}\n`);
  process.stdout.write(`${'of json'.padEnd(17)}${WIRE_PROFILES.map((w) => `${((perHand[w].total / json) * 100).toFixed(1)}%`.padStart(11)).join('')}\n`);
  process.stdout.write(`(${recording.actions.length} human actions, ${recording.rebuys} rebuys)\n`);
  return 0;
}

function usage(problem?: string): number {
  if (problem) process.stderr.write(`${problem}\n\n`);
  process.stderr.write(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof WireDecodeError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
