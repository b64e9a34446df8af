import { ManagedRoom, RoomRegistry } from './room-registry';
import { VirtualScheduler } from './virtual-scheduler';

class FakeRoom implements ManagedRoom {
  disposed = false;
  constructor(readonly code: string) {}
  dispose(): void {
    this.disposed = true;
  }
}

/** A loader whose loads finish only when the test says so. */
function controlledLoader() {
  const calls: string[][] = [];
  const finishers: (() => void)[] = [];
  const load = (codes: string[]) =>
    new Promise<Map<string, FakeRoom>>((resolve) => {
      calls.push(codes);
      finishers.push(() => resolve(new Map(codes.filter((c) => c !== 'NOROOM').map((c) => [c, new FakeRoom(c)]))));
    });
  return { calls, finishers, load };
}

let scheduler: VirtualScheduler;
/** Runs the registry's turn and the promises it settles. No time passes. */
const tick = () => scheduler.flush();

describe(RoomRegistry.name, () => {
  beforeEach(() => (scheduler = new VirtualScheduler()));

  it('loads rooms asked for in the same turn with one call', async () => {
    const { calls, finishers, load } = controlledLoader();
    const registry = new RoomRegistry(load, scheduler);
    const asked = ['AAAAAA', 'BBBBBB', 'CCCCCC'].map((c) => registry.get(c));
    await tick();
    expect(calls).toEqual([['AAAAAA', 'BBBBBB', 'CCCCCC']]);
    finishers[0]();
    expect((await Promise.all(asked)).map((r) => r?.code)).toEqual(['AAAAAA', 'BBBBBB', 'CCCCCC']);
  });

  it('coalesces rooms asked for while a load is in flight into the next single load', async () => {
    const { calls, finishers, load } = controlledLoader();
    const registry = new RoomRegistry(load, scheduler);
    const first = registry.get('AAAAAA');
    await tick();
    const later = [registry.get('BBBBBB'), registry.get('CCCCCC')];
    await tick();
    expect(calls).toHaveLength(1);
    finishers[0]();
    await first;
    await tick();
    expect(calls).toEqual([['AAAAAA'], ['BBBBBB', 'CCCCCC']]);
    finishers[1]();
    expect((await Promise.all(later)).map((r) => r?.code)).toEqual(['BBBBBB', 'CCCCCC']);
  });

  it('never loads a room twice: a code asked for again while its load is in flight shares that load', async () => {
    const { calls, finishers, load } = controlledLoader();
    const registry = new RoomRegistry(load, scheduler);
    const first = registry.get('AAAAAA');
    await tick();
    const again = registry.get('AAAAAA');
    await tick();
    finishers[0]();
    expect(await again).toBe(await first);
    await tick();
    expect(calls).toEqual([['AAAAAA']]);
  });

  it('shares one activation between callers of the same code and keeps the room live', async () => {
    const { calls, finishers, load } = controlledLoader();
    const registry = new RoomRegistry(load, scheduler);
    const a = registry.get('AAAAAA');
    const b = registry.get('AAAAAA');
    await tick();
    finishers[0]();
    expect(await a).toBe(await b);
    expect(await registry.get('AAAAAA')).toBe(await a);
    expect(calls).toHaveLength(1);
  });

  it('answers undefined for an unknown code, and loads again after a room is removed', async () => {
    const { calls, finishers, load } = controlledLoader();
    const registry = new RoomRegistry(load, scheduler);
    const missing = registry.get('NOROOM');
    await tick();
    finishers[0]();
    expect(await missing).toBeUndefined();
    const room = registry.get('AAAAAA');
    await tick();
    finishers[1]();
    registry.remove((await room)!);
    expect(registry.peek('AAAAAA')).toBeUndefined();
    void registry.get('AAAAAA');
    await tick();
    expect(calls).toHaveLength(3);
  });

  it('rejects every waiter of a failed load and recovers on the next', async () => {
    let fail = true;
    const registry = new RoomRegistry(async (codes) => {
      if (fail) throw new Error('database unavailable');
      return new Map(codes.map((c) => [c, new FakeRoom(c)]));
    }, scheduler);
    await expect(scheduler.settled(registry.get('AAAAAA'))).rejects.toThrow('database unavailable');
    fail = false;
    await expect(scheduler.settled(registry.get('AAAAAA'))).resolves.toBeInstanceOf(FakeRoom);
  });
});
