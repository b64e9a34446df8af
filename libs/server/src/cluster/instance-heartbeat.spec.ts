import { BeatAnswer, InstanceBeat, InstanceRepository, InstanceRow, LostLease } from '@app/persistence';
import { JsonLog } from '../config/json-log';
import { InstanceHeartbeat } from './instance-heartbeat';
import { InstanceIdentity } from './instance-identity';

// How the heartbeat reads the registry's rows, with the database replaced by a list of answers.
describe(InstanceHeartbeat.name, () => {
  const row = (name: string, over: Partial<InstanceRow> = {}): InstanceRow => ({
    name,
    url: `http://${name}`,
    pid: 1,
    startedAt: 0,
    rooms: 0,
    health: 'ok',
    seenSecondsAgo: 0,
    ...over,
  });

  function setup(answers: (InstanceRow[] | Error)[], intervalMs = 1000) {
    const beats: InstanceBeat[] = [];
    const repository = {
      beat: async (me: InstanceBeat) => {
        beats.push(me);
        const next = answers.shift() ?? [];
        if (next instanceof Error) throw next;
        return { rows: next, at: 0, lost: [] };
      },
    } as unknown as InstanceRepository;
    const identity = new InstanceIdentity({ instanceName: 'me' });
    identity.settle(3000);
    const warnings: string[] = [];
    const log = { warn: (msg: string) => warnings.push(msg) } as unknown as JsonLog;
    let rooms = 2;
    const heartbeat = new InstanceHeartbeat(repository, identity, () => rooms, intervalMs, log);
    return { heartbeat, beats, warnings, setRooms: (n: number) => (rooms = n) };
  }

  it('counts another instance silent after three missed beats, by the database’s age plus the time since', async () => {
    const { heartbeat } = setup([[row('me'), row('other', { seenSecondsAgo: 1 })]]);
    await heartbeat.start();
    const at = Date.now();
    const other = (now: number) => heartbeat.instances(now).find((i) => i.name === 'other');
    expect(other(at)).toMatchObject({ status: 'up', self: false });
    expect(other(at + 2500)).toMatchObject({ status: 'silent' });
    expect(other(at + 2500)!.seenSecondsAgo).toBeGreaterThanOrEqual(3.5);
    await heartbeat.stop();
  });

  it('shows its own row as fresh, with its rooms and health as of now', async () => {
    const { heartbeat, setRooms } = setup([[row('me', { rooms: 2, seenSecondsAgo: 0 })]], 0);
    await heartbeat.start();
    setRooms(5);
    expect(heartbeat.instances(Date.now() + 60_000)).toEqual([
      expect.objectContaining({ name: 'me', rooms: 5, health: 'ok', status: 'up', self: true, seenSecondsAgo: 0 }),
    ]);
  });

  it('shows a stopped instance as stopped however long ago it beat', async () => {
    const { heartbeat } = setup([[row('me'), row('gone', { health: 'stopped', seenSecondsAgo: 500 })]]);
    await heartbeat.start();
    expect(heartbeat.instances().find((i) => i.name === 'gone')?.status).toBe('stopped');
    await heartbeat.stop();
  });

  it('logs a failed beat, keeps the rows it had, and writes draining then stopped, in that order', async () => {
    const { heartbeat, beats, warnings } = setup([[row('me'), row('other')], new Error('connection refused'), [], []], 0);
    await heartbeat.start();
    await heartbeat.draining();
    expect(warnings).toEqual(['instance heartbeat failed']);
    expect(heartbeat.instances().map((i) => i.name)).toEqual(['me', 'other']);
    await heartbeat.stop();
    expect(beats.map((b) => b.health)).toEqual(['ok', 'draining', 'stopped']);
    expect(beats[0]).toMatchObject({ name: 'me', url: expect.stringMatching(/:3000$/), pid: process.pid, rooms: 2 });
  });

  it('names no room in its beat, asks for the moves since the last beat it heard, and says for how long a failed beat left the leases unrenewed', async () => {
    const sent: (number | undefined)[] = [];
    const heard: { lost?: readonly LostLease[]; unrenewedFor?: number }[] = [];
    const answers: (BeatAnswer | Error)[] = [
      { rows: [row('me')], at: 1000, lost: [] },
      new Error('connection refused'),
      { rows: [row('me')], at: 5000, lost: [{ id: 'r1', fence: 4 }] },
      { rows: [row('me')], at: 6000, lost: [] },
    ];
    const repository = {
      beat: async (_me: InstanceBeat, since?: number) => {
        sent.push(since);
        const next = answers.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
    } as unknown as InstanceRepository;
    const identity = new InstanceIdentity({ instanceName: 'me' });
    identity.settle(3000);
    const log = { warn: () => undefined, info: () => undefined } as unknown as JsonLog;
    const holder = {
      renewed: (lost: readonly LostLease[]) => heard.push({ lost }),
      unrenewedFor: (ms: number) => heard.push({ unrenewedFor: ms }),
    };
    const heartbeat = new InstanceHeartbeat(repository, identity, () => 2, 0, log, holder);
    await heartbeat.start();
    await heartbeat.draining();
    // The beat after a failed one asks again from the last answer heard, so a move that it missed is read again.
    await heartbeat.draining();
    expect(sent).toEqual([undefined, 1000, 1000]);
    expect(heard[0]).toEqual({ lost: [] });
    expect(heard[1].unrenewedFor).toBeGreaterThanOrEqual(0);
    expect(heard[2]).toEqual({ lost: [{ id: 'r1', fence: 4 }] });
    // The last beat comes once the rooms are gone, so it tells the rooms nothing.
    await heartbeat.stop();
    expect(sent[3]).toBe(5000);
    expect(heard).toHaveLength(3);
  });
});
