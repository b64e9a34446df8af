import { resolve } from 'node:path';
import { ClusterScript, CommandRecord } from '@app/bot-kit';
import { playFailover } from './modes/failover';
import { FailoverResult, FailoverSettings } from './modes/failover-result';

/**
 * Runs the failover mode's core for real, at a small size: `npm run cluster` with two instances
 * behind HAProxy, and four rooms playing through the proxy only. The instance holding most of the
 * rooms is killed with SIGKILL about 3 s in (or, with `rolling`, both instances are restarted in
 * turn through the cluster script's stdin). The seats reconnect with the tokens they have, and
 * resend under its id what got no reply. Afterwards, every durable command acknowledged with 2xx is
 * looked for in PostgreSQL. Nothing here is timed against a limit, because the failover times are
 * the report's to give.
 */
jest.setTimeout(300_000);

const REPO = resolve(__dirname, '../../..');

// Both runs share two instances and four rooms of two seats. Each run says how its games go.
const BOTS = { seats: 2, revealSeconds: 0.5, keepAliveMs: 0, commandTimeoutMs: 10_000, wire: 'json' as const };
function settings(run: Pick<FailoverSettings, 'bots' | 'killAfterMs'> & Partial<FailoverSettings>): FailoverSettings {
  return { instances: 2, games: 4, kill: 'busiest', staggerMs: 100, resumeTimeoutMs: 60_000, clusterEnv: {}, ...run };
}

describe('the failover mode', () => {
  let result: FailoverResult;
  const records: CommandRecord[] = [];

  beforeAll(async () => {
    result = await playFailover(
      settings({
        // Eight questions of up to 4 s, each answered after 0.4-1.2 s, so the kill lands mid-game. A
        // busy machine slows the games as much as it delays the kill.
        bots: { ...BOTS, questions: 8, secondsPerQuestion: 4, pause: { baseMs: 400, spreadMs: 800 }, seed: 7 },
        killAfterMs: 3000,
      }),
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
    expect(result.disruption).toBe('kill');
    expect(result.failover!.moved.length).toBeGreaterThanOrEqual(1);
    expect(result.failover!.notServedAgain).toEqual([]);
    const survivor = result.instances.find((i) => i.instance !== result.victim)!.instance;
    for (const room of result.failover!.moved) {
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

describe('the failover mode, rolling', () => {
  let result: FailoverResult;

  beforeAll(async () => {
    result = await playFailover(
      settings({
        // Sixteen questions, each answered after 2-3.5 s (of 5), make a game of a minute or so. The
        // restarts begin only once every game has started, and two of them take far less, so every
        // game is live through them, however busy the machine.
        bots: { ...BOTS, questions: 16, secondsPerQuestion: 5, pause: { baseMs: 2000, spreadMs: 1500 }, seed: 11 },
        killAfterMs: 1000,
        rolling: { gapMs: 1000 },
      }),
      { repo: REPO },
    );
  });

  it('loses no acknowledged command', () => {
    expect(result.disruption).toBe('rolling');
    expect(result.accounting.acknowledged).toBeGreaterThan(0);
    expect(result.accounting.lostCommands).toEqual([]);
    expect(result.accounting.lost).toBe(0);
    expect(result.accounting.found).toBe(result.accounting.acknowledged);
  });

  it('restarts each instance once, in turn, and the proxy serves it again', () => {
    const restarts = result.rolling!.restarts;
    expect(restarts.map((r) => r.instance)).toEqual(['instance-1', 'instance-2']);
    for (const r of restarts) {
      expect(r.error).toBeUndefined();
      expect(r.newPid).toBeDefined();
      expect(r.newPid).not.toBe(r.oldPid);
      expect(r.servingAgainMs).toBeGreaterThan(0);
      // The cluster's view shows the new process.
      expect(result.instances.find((i) => i.instance === r.instance)!.pid).toBe(r.newPid);
    }
    expect(result.perInstance.map((i) => i.restarted)).toEqual([true, true]);
  });

  it('moves the rooms of each restarting instance, and every one of them is served again', () => {
    expect(result.rolling!.moved).toBeGreaterThanOrEqual(1);
    for (const r of result.rolling!.restarts) {
      expect(r.notServedAgain).toEqual([]);
      for (const room of r.moved) expect(room.firstOkMs).toBeGreaterThan(0);
    }
    expect(result.rolling!.servedAgain).toBe(result.rolling!.moved);
  });

  it('drops no game: every game that started finished', () => {
    expect(result.games.errors).toEqual([]);
    expect(result.games.started).toBe(4);
    expect(result.games.finished).toBe(4);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
  });
});

describe('the cluster script, restarting an instance in place', () => {
  let cluster: ClusterScript;

  beforeAll(async () => {
    cluster = await ClusterScript.start(REPO, 1, {}, () => undefined);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const health = async (url: string) => (await fetch(`${url}/health`)).json() as Promise<{ instance: string; pid: number }>;

  it('refuses a bad line with a message on stderr, and changes nothing', async () => {
    const before = cluster.member('instance-1');
    const unknownName = cluster.lineWith(`no instance is named 'instance-9'`);
    const unknownCommand = cluster.lineWith(`unknown command 'reboot instance-1'`);
    cluster.send('restart instance-9');
    cluster.send('reboot instance-1');
    expect(await unknownName).toMatch(/^\[cluster\] /);
    expect(await unknownCommand).toContain('restart <instance-name>');
    expect(await health(before.url)).toMatchObject({ instance: 'instance-1', pid: before.pid });
    expect(cluster.member('instance-1')).toEqual(before);
  });

  it('drains the instance and starts it again with the same name and port, then says so on stdout', async () => {
    const before = cluster.member('instance-1');
    const back = await cluster.restart('instance-1');
    expect(back).toMatchObject({ instance: 'instance-1', url: before.url });
    expect(back.pid).not.toBe(before.pid);
    expect(back.downMs).toBeGreaterThan(0);
    expect(await health(back.url)).toMatchObject({ instance: 'instance-1', pid: back.pid });
    expect(cluster.recentOutput()).toContain(`{"restarted":"instance-1","pid":${back.pid}`);
  });
});
