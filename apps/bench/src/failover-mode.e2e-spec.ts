import { resolve } from 'node:path';
import { CommandRecord } from '@app/bot-kit';
import { FailoverResult, playFailover } from './modes/failover';

/**
 * The failover mode's core for real, small: `npm run cluster` with two instances behind HAProxy,
 * four rooms playing through the proxy only, and the instance holding most of them killed with
 * SIGKILL about 3 s in. The seats reconnect with the tokens they have and resend what got no
 * reply under its id; afterwards every durable command acknowledged 2xx is looked for in
 * PostgreSQL. Nothing here is timed against a limit: the failover times are the report's.
 */
jest.setTimeout(300_000);

const REPO = resolve(__dirname, '../../..');

describe('the failover mode', () => {
  let result: FailoverResult;
  const records: CommandRecord[] = [];

  beforeAll(async () => {
    result = await playFailover(
      {
        instances: 2,
        games: 4,
        // Eight questions of up to 4 s, each answered after 0.4-1.2 s: the kill lands mid-game
        // (a busy machine slows the games as much as it delays the kill).
        bots: { seats: 2, questions: 8, secondsPerQuestion: 4, revealSeconds: 0.5, pause: { baseMs: 400, spreadMs: 800 }, keepAliveMs: 0, commandTimeoutMs: 10_000, seed: 7 },
        killAfterMs: 3000,
        kill: 'busiest',
        staggerMs: 100,
        resumeTimeoutMs: 60_000,
        clusterEnv: {},
      },
      { repo: REPO, record: (r) => records.push(r) },
    );
  });

  it('loses no acknowledged command', () => {
    expect(result.accounting.acknowledged).toBeGreaterThan(0);
    expect(result.accounting.lostCommands).toEqual([]);
    expect(result.accounting.lost).toBe(0);
    expect(result.accounting.found).toBe(result.accounting.acknowledged);
  });

  it('moves at least one room, and every moved room is served again by the other instance', () => {
    expect(result.failover.moved.length).toBeGreaterThanOrEqual(1);
    expect(result.failover.notServedAgain).toEqual([]);
    const survivor = result.instances.find((i) => i.instance !== result.victim)!.instance;
    for (const room of result.failover.moved) {
      expect(room.firstOkMs).toBeGreaterThan(0);
      expect(room.servedBy).toBe(survivor);
    }
    expect(result.passed).toBe(true);
  });

  it('plays every game to its end across the kill', () => {
    expect(result.games.errors).toEqual([]);
    expect(result.games.started).toBe(4);
    expect(result.games.finished).toBe(4);
  });

  it('records every command through the proxy, named by the instance that served it', () => {
    const answers = records.filter((r) => r.type === 'room.answer' && r.status === 200);
    expect(answers.length).toBeGreaterThan(0);
    for (const r of answers) expect(result.instances.map((i) => i.instance)).toContain(r.servedBy);
  });
});
