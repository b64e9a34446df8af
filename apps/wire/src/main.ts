import { readFileSync } from 'node:fs';
import { wireProfileOf, WIRE_PROFILES, WireDecodeError } from '@app/protocol';
import { decodeLines } from './decode';
import { measureBytesPerAnswer } from './measure';

const USAGE = `Usage:
  npm run wire -- decode --profile <${WIRE_PROFILES.join('|')}> [FILE]
      FILE (or stdin): the frames one socket received, one per line, from its first;
      prints the JSON frames they stand for, one per line.
  npm run wire -- measure --url http://127.0.0.1:3000 [--seats 4] [--questions 6]
      plays one trivia room on a running server with a socket per profile per viewer and
      prints the bytes per answer of each profile, against JSON in the same run.
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
