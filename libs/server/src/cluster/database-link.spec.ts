import { DatabaseLink } from './database-link';

describe(DatabaseLink.name, () => {
  it('is steady from its first beat: an instance that starts has seen no outage', () => {
    const link = new DatabaseLink(1000);
    expect(link.beatOk(0)).toBe(false);
    expect(link.steadyFor(6000, 1)).toBe(true);
    expect(link.reachable(1)).toBe(true);
  });

  it('after a failed beat, is unreachable, and steady again only a whole lease after the first beat that got through', () => {
    const link = new DatabaseLink(1000);
    link.beatOk(0);
    link.beatFailed();
    expect(link.reachable(1000)).toBe(false);
    expect(link.steadyFor(6000, 1000)).toBe(false);
    // The first beat after the outage reports that PostgreSQL is back.
    expect(link.beatOk(30_000)).toBe(true);
    expect(link.beatOk(31_000)).toBe(false);
    expect(link.reachable(31_000)).toBe(true);
    expect(link.steadyFor(6000, 35_999)).toBe(false);
    expect(link.steadyFor(6000, 36_000)).toBe(true);
  });

  it('counts a beat older than three beats as no news: not reachable', () => {
    const link = new DatabaseLink(1000);
    link.beatOk(0);
    expect(link.reachable(3000)).toBe(true);
    expect(link.reachable(3001)).toBe(false);
  });

  it('without a beat on a timer, knows nothing of reachability and never waits to be steady', () => {
    const link = new DatabaseLink(0);
    link.beatFailed();
    expect(link.reachable()).toBeUndefined();
    expect(link.steadyFor(6000)).toBe(true);
  });
});
