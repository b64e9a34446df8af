import { JsonLog } from './json-log';
import { ProcessFaults } from './process-faults';

function faults() {
  const lines: Record<string, unknown>[] = [];
  const exits: number[] = [];
  const log = new JsonLog('info', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  return { lines, exits, faults: new ProcessFaults(log, (code) => exits.push(code)) };
}

describe(ProcessFaults.name, () => {
  it('logs and counts an unhandled rejection, with its stack, and ends nothing', () => {
    const { lines, exits, faults: f } = faults();
    let counted = 0;
    f.countWith({ unhandledRejection: () => counted++ });
    f.unhandledRejection(new RangeError('a promise nobody awaited'));
    expect(counted).toBe(1);
    expect(exits).toEqual([]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'unhandled promise rejection: logged and counted; the process goes on',
        reason: 'RangeError: a promise nobody awaited',
        error: expect.stringContaining('process-faults.spec.ts'),
      }),
    ]);
  });

  it('counts the rejections of a start-up once the metrics exist', () => {
    const { faults: f } = faults();
    f.unhandledRejection('early');
    f.unhandledRejection('early too');
    let counted = 0;
    f.countWith({ unhandledRejection: () => counted++ });
    expect(counted).toBe(2);
  });

  it('logs an uncaught exception and ends the process with status 1', () => {
    const { lines, exits, faults: f } = faults();
    f.uncaughtException(new Error('escaped a timer'), 'uncaughtException');
    expect(exits).toEqual([1]);
    expect(lines).toEqual([expect.objectContaining({ level: 'error', origin: 'uncaughtException', reason: 'Error: escaped a timer' })]);
  });
});
