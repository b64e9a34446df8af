import { readFileSync } from 'node:fs';
import { wireProfileOf, WIRE_PROFILES, WireDecodeError } from '@app/protocol';
import { decodedLines } from './decode';
import { flushed, LineWriter } from './line-writer';
import { measureBytesPerAnswer } from './measure';
import { bytesPerHand, recordTable } from './table-recording';

const USAGE = `Usage:
  npm run wire -- decode --profile <${WIRE_PROFILES.join('|')}> [FILE]
      FILE (or stdin): the frames one socket received, one per line, from its first;
      prints the JSON frames they stand for, one per line. Stops at the first line it
      cannot decode, after printing the lines before it, naming that line on stderr.
  npm run wire -- measure --url http://127.0.0.1:3000 [--seats 4] [--questions 6]
      plays one trivia room on a running server with a socket per profile per viewer and
      prints the bytes per answer of each profile, against JSON in the same run (each
      viewer holds 4 sockets at once: start the server with SOCKETS_PER_SEAT=4).
  npm run wire -- measure --game cards --url http://127.0.0.1:3000 [--hands 30] [--bots 5] [--seed 7]
      plays one card table with the human and a spectator each on a socket per profile and
      prints the bytes per hand of each profile by kind, against JSON in the same run.
Exit codes: 0 done (also when the reader of the output stops early, as \`| head\` does),
  1 a frame that cannot be decoded or a run that failed, 2 a wrong command line or no FILE to read.
`;

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [mode, ...rest] = argv;
  if (mode === 'decode') return decode(rest);
  if (mode === 'measure') {
    const url = option(rest, 'url');
    if (!url) return usage('--url is required');
    const game = option(rest, 'game') ?? 'trivia';
    if (game === 'cards') return measureTable(url, rest);
    if (game !== 'trivia') return usage(`--game must be trivia or cards`);
    const result = await measureBytesPerAnswer(url, Number(option(rest, 'seats') ?? 4), Number(option(rest, 'questions') ?? 6));
    const json = result.perAnswer.json;
    for (const [wire, bytes] of Object.entries(result.perAnswer)) {
      process.stdout.write(
        `${wire.padEnd(11)} ${String(bytes).padStart(8)} bytes per answer  ${((bytes / json) * 100).toFixed(1)}% of json\n`,
      );
    }
    process.stdout.write(`(${result.answers} answers)\n`);
    return 0;
  }
  return usage(mode ? `unknown mode '${mode}'` : undefined);
}

async function decode(rest: string[]): Promise<number> {
  const profile = wireProfileOf(option(rest, 'profile'));
  if (!profile) return usage(`--profile must be one of ${WIRE_PROFILES.join(', ')}`);
  const unknown = rest.find((a) => a.startsWith('--') && a !== '--profile');
  if (unknown) return usage(`unknown option '${unknown}'`);
  const files = rest.filter((a, i) => !a.startsWith('--') && rest[i - 1] !== '--profile');
  if (files.length > 1) return usage('decode reads one FILE (or stdin)');
  const file = files[0] && files[0] !== '-' ? files[0] : undefined;
  let text: string;
  try {
    text = readFileSync(file ?? 0, 'utf8');
  } catch (err) {
    process.stderr.write(`cannot read ${file ?? 'stdin'}: ${(err as Error).message}\n`);
    return 2;
  }
  const out = new LineWriter(process.stdout);
  try {
    for (const line of decodedLines(profile, text)) await out.line(line);
  } catch (err) {
    if (!(err instanceof WireDecodeError)) throw err;
    // Everything before the bad line is written out first, so a reader keeps every frame that decoded.
    await out.end();
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
  await out.end();
  return 0;
}

async function measureTable(url: string, rest: string[]): Promise<number> {
  const hands = Number(option(rest, 'hands') ?? 30);
  const bots = Number(option(rest, 'bots') ?? 5);
  const seed = Number(option(rest, 'seed') ?? 7);
  if (![hands, bots, seed].every(Number.isInteger) || hands < 1 || bots < 1 || bots > 8)
    return usage('--hands (1 or more), --bots (1-8) and --seed are whole numbers');
  const recording = await recordTable(url, { hands, bots, seed });
  const { perHand } = bytesPerHand(recording);
  const json = perHand.json.total;
  const kinds = [...new Set(WIRE_PROFILES.flatMap((w) => Object.keys(perHand[w].byKind)))].sort(
    (a, b) => (perHand.json.byKind[b] ?? 0) - (perHand.json.byKind[a] ?? 0),
  );
  const cell = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(1)).padStart(11);
  process.stdout.write(`bytes per hand, a table of ${bots + 1}, the human's and a spectator's sockets (${hands} hands, seed ${seed})\n\n`);
  process.stdout.write(`${'kind'.padEnd(17)}${WIRE_PROFILES.map((w) => w.padStart(11)).join('')}\n`);
  for (const kind of kinds) process.stdout.write(`${kind.padEnd(17)}${WIRE_PROFILES.map((w) => cell(perHand[w].byKind[kind])).join('')}\n`);
  for (const row of ['human', 'spectator', 'total'] as const)
    process.stdout.write(`${row.padEnd(17)}${WIRE_PROFILES.map((w) => cell(perHand[w][row])).join('')}\n`);
  process.stdout.write(
    `${'of json'.padEnd(17)}${WIRE_PROFILES.map((w) => `${((perHand[w].total / json) * 100).toFixed(1)}%`.padStart(11)).join('')}\n`,
  );
  process.stdout.write(`(${recording.actions.length} human actions, ${recording.rebuys} rebuys)\n`);
  return 0;
}

function usage(problem?: string): number {
  if (problem) process.stderr.write(`${problem}\n\n`);
  process.stderr.write(USAGE);
  return 2;
}

// A reader that stops early (`| head`) closes the pipe. The rest of the output has nowhere to go,
// and that is what the reader asked for, so the command stops quietly. (Node ignores SIGPIPE and
// reports EPIPE here instead.)
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(exit, (err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  return exit(1);
});

/**
 * Exits once stdout and stderr have handed everything over, because process.exit() drops what a
 * pipe has not taken yet.
 */
async function exit(code: number): Promise<void> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  // It exits rather than waiting for the event loop to empty, because whatever a measure run leaves
  // open (sockets still closing, a client's timers) must not hold up the command.
  process.exit(code);
}
