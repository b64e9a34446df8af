import { RoomException } from '@app/protocol';
import { EncodingSlots } from './encoding-slots';

/** A piece of work that ends when the test says so. */
function held<T>(value: T) {
  let release!: () => void;
  const started = { value: false };
  const gate = new Promise<void>((resolve) => (release = resolve));
  const work = async () => {
    started.value = true;
    await gate;
    return value;
  };
  return { work, release, started };
}

describe(EncodingSlots.name, () => {
  it('runs as many at once as it has slots, and hands a freed slot to the first waiting', async () => {
    const slots = new EncodingSlots(2, 4);
    const [a, b, c] = [held('a'), held('b'), held('c')];
    const results = [slots.run(a.work), slots.run(b.work), slots.run(c.work)];
    await Promise.resolve();
    expect([a.started.value, b.started.value, c.started.value]).toEqual([true, true, false]);
    expect(slots.queued).toBe(1);
    a.release();
    expect(await results[0]).toBe('a');
    await new Promise((r) => setImmediate(r));
    expect(c.started.value).toBe(true);
    b.release();
    c.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(slots.queued).toBe(0);
  });

  it('refuses with 503 overloaded and Retry-After when every slot is busy and the queue is full', async () => {
    const slots = new EncodingSlots(1, 1);
    const [a, b] = [held(1), held(2)];
    const running = [slots.run(a.work), slots.run(b.work)];
    const refused = await slots.run(async () => 3).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RoomException);
    expect(refused).toMatchObject({ code: 'overloaded', httpStatus: 503, retryAfterSeconds: 1 });
    a.release();
    b.release();
    expect(await Promise.all(running)).toEqual([1, 2]);
  });

  it('frees the slot of a piece of work that failed', async () => {
    const slots = new EncodingSlots(1, 0);
    await expect(slots.run(async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
