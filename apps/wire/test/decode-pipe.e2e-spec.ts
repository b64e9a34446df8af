import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeLines } from '../src/decode';
import { BUILT_WIRE, ensureBuiltWire } from './built-wire';
import { cardsRecording } from './cards-recording';

// These tests run `npm run wire -- decode` as a user runs it: the built CLI, with its stdout a real
// pipe (bash's `|`) into another process. The reader below is slow on purpose. The pipe fills and
// the decoder must wait for it, and that is where output used to be lost (the process exited with
// output still queued).

/** A reader that reads its stdin a chunk at a time with a pause after each, as a slow `| jq` would, and passes it on. */
const SLOW_READER = `process.stdin.on('data', (chunk) => {
  process.stdout.write(chunk);
  process.stdin.pause();
  setTimeout(() => process.stdin.resume(), 5);
});`;

// These are hard limits for a run on a busy machine, not expectations of how long a run takes.
const RUN_TIMEOUT_MS = 60_000;
const BUILD_TIMEOUT_MS = 180_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `decode ARGS < STDIN | READER` in bash, where READER is a command of plain words. The exit
 * code and stderr are the decoder's, and stdout is the reader's.
 */
function decodeInto(reader: string, stdin: string, ...args: string[]): Promise<Run> {
  const script = '"$0" "$1" decode "${@:4}" < "$3" | $2; exit "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, process.execPath, BUILT_WIRE, reader, stdin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => stdout.push(b));
  child.stderr.on('data', (b: Buffer) => stderr.push(b));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`decode ${args.join(' ')} did not finish in ${RUN_TIMEOUT_MS} ms`));
    }, RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

const lines = (text: string) => text.split('\n').slice(0, -1);

describe('wire decode', () => {
  // 300 hands of a simulated table, sent through the server's encoder, make about 9,000 frames. They
  // decode to over a megabyte, many times what a pipe holds.
  const recording = cardsRecording('compact-v2', 300);
  const decoded = decodeLines('compact-v2', recording.text);
  let dir: string;
  let file: string;
  let slowly: string;

  beforeAll(() => {
    ensureBuiltWire();
    dir = mkdtempSync(join(tmpdir(), 'wire-decode-'));
    file = join(dir, 'frames.txt');
    writeFileSync(file, recording.text);
    writeFileSync(join(dir, 'slow-reader.js'), SLOW_READER);
    slowly = `${process.execPath} ${join(dir, 'slow-reader.js')}`;
  }, BUILD_TIMEOUT_MS);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is given a recording of thousands of frames that decodes to the stream the socket stood for', () => {
    expect(recording.frames).toBeGreaterThan(3000);
    expect(decoded.map((l) => JSON.parse(l))).toEqual(recording.expected);
  });

  it('writes every frame to a slow reader through a pipe, and exits 0', async () => {
    const run = await decodeInto(slowly, '/dev/null', '--profile', 'compact-v2', file);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(recording.frames);
    expect(lines(run.stdout)).toEqual(decoded);
  });

  it.each([5, 4000])('stops at a corrupted line %i: the lines before it on stdout, the line named on stderr, exit 1', async (bad) => {
    const frames = lines(recording.text);
    frames[bad - 1] = frames[bad - 1].slice(0, -3);
    const corrupted = join(dir, `corrupted-${bad}.txt`);
    writeFileSync(corrupted, frames.join('\n') + '\n');
    const run = await decodeInto(slowly, '/dev/null', '--profile', 'compact-v2', corrupted);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`line ${bad}: a frame is one JSON text\n`);
    expect(lines(run.stdout)).toEqual(decoded.slice(0, bad - 1));
  });

  it('counts empty lines in the number of the line it names, and decodes no frame from them', async () => {
    const frames = lines(recording.text).slice(0, 6);
    const text = [frames[0], '', frames[1], frames[2], '[1,', frames[3]].join('\n');
    const withGap = join(dir, 'gap.txt');
    writeFileSync(withGap, text);
    const run = await decodeInto(slowly, '/dev/null', '--profile', 'compact-v2', withGap);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('line 5: a frame is one JSON text\n');
    expect(lines(run.stdout)).toEqual(decoded.slice(0, 3));
  });

  it('stops quietly with 0 when its reader leaves early (`| head -n 1`), reading stdin', async () => {
    const run = await decodeInto('head -n 1', file, '--profile', 'compact-v2', '-');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${decoded[0]}\n`);
  });

  it('exits 2 with the usage and writes nothing on an unknown profile or a file it cannot read', async () => {
    const unknown = await decodeInto(slowly, '/dev/null', '--profile', 'compact-v9', file);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^--profile must be one of json, compact-v1, compact-v2, compact-v3\n\nUsage:/);
    const missing = await decodeInto(slowly, '/dev/null', '--profile', 'compact-v2', join(dir, 'absent.txt'));
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^cannot read .*absent\.txt: ENOENT/);
  });
});
