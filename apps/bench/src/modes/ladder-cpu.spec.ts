import { cpuMsPerAnswer } from './ladder';

const usage = { wallSeconds: 30, cpuPercent: { server: 50, postgres: undefined }, loadAverage: [], loopDelay: { p50: 0, p99: 0, max: 0 } };

describe('cpuMsPerAnswer', () => {
  it('spreads the window CPU time over the answers handled in it', () => {
    // Half a core for 30 s is 15,000 ms of CPU; over 30,000 answers, 0.5 ms each.
    expect(cpuMsPerAnswer(usage, 'server', 30_000)).toBeCloseTo(0.5, 10);
  });

  it('says nothing without a reading or without answers', () => {
    expect(cpuMsPerAnswer(usage, 'postgres', 30_000)).toBeUndefined();
    expect(cpuMsPerAnswer(usage, 'server', 0)).toBeUndefined();
    expect(cpuMsPerAnswer(undefined, 'server', 10)).toBeUndefined();
  });
});
