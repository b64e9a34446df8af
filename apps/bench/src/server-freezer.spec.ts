import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FreezeSchedule, ServerFreezer } from './server-freezer';

/** The process's state letter from /proc. `T` means stopped by a signal. */
function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
}

/**
 * Waits until `test` holds, checking every 10 ms, with a hard limit. It must wait, because the kernel
 * delivers signals asynchronously.
 */
async function until(test: () => boolean, what: string): Promise<void> {
  const by = Date.now() + 10_000;
  while (!test()) {
    if (Date.now() > by) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A real process to freeze: a `sleep` that outlives the test unless killed. */
describe('ServerFreezer and FreezeSchedule, on a real process', () => {
  let child: ChildProcess;
  beforeEach(() => {
    child = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  afterEach(() => {
    child.kill('SIGKILL');
  });

  it('stops the process for the freeze and lets it run again after it', async () => {
    const freezer = new ServerFreezer(child.pid!);
    const freezing = freezer.freeze(300, { game: 1, question: 0 });
    await until(() => stateOf(child.pid!) === 'T', 'the process stopped');
    await freezing;
    await until(() => stateOf(child.pid!) !== 'T', 'the process running again');
    expect(freezer.freezes).toEqual([{ at: expect.any(Number), heldMs: expect.any(Number), game: 1, question: 0 }]);
    freezer.dispose();
  });

  it('never leaves the process stopped when the run is interrupted mid-freeze', async () => {
    const abort = new AbortController();
    const freezer = new ServerFreezer(child.pid!, abort.signal);
    const freezing = freezer.freeze(60_000, { game: 1, question: 0 });
    await until(() => stateOf(child.pid!) === 'T', 'the process stopped');
    abort.abort();
    await freezing;
    await until(() => stateOf(child.pid!) !== 'T', 'the process running again');
    freezer.dispose();
  });

  it('freezes once per question, when its share of the expected answers has been sent', async () => {
    const freezer = new ServerFreezer(child.pid!);
    const due: string[] = [];
    const schedule = new FreezeSchedule(freezer, 0.5, 0, 50, (w) => due.push(`${w.game}:${w.question}`));
    schedule.expectedPerQuestion = 4;
    schedule.answerSending(1, 0);
    schedule.answerSending(1, 1);
    // The second answer of question 0 makes half of its four, so its freeze falls due. The other
    // answers add no freeze.
    schedule.answerSending(1, 0);
    schedule.answerSending(1, 0);
    schedule.answerSending(1, 0);
    schedule.answerSending(1, 1);
    schedule.answerSending(2, 0);
    await schedule.settled();
    expect(due).toEqual(['1:0', '1:1']);
    expect(freezer.freezes.map((f) => [f.game, f.question])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    await until(() => stateOf(child.pid!) !== 'T', 'the process running again');
    freezer.dispose();
  });

  it('freezes nothing before it knows how many answers a question expects', async () => {
    const freezer = new ServerFreezer(child.pid!);
    const schedule = new FreezeSchedule(freezer, 0.5, 0, 50);
    for (let i = 0; i < 10; i++) schedule.answerSending(1, 0);
    await schedule.settled();
    expect(freezer.freezes).toEqual([]);
    freezer.dispose();
  });
});
