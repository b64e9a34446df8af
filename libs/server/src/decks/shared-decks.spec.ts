import { SharedDecks } from './shared-decks';

const item = (text: string, correct = 0) => ({ text, choices: ['a', 'b', 'c', 'd'], correct });

describe(SharedDecks.name, () => {
  it('hands rooms that copy the same content one frozen copy, equal to what they copied', () => {
    const decks = new SharedDecks();
    const first = decks.share([item('one'), item('two', 3)]);
    const second = decks.share([item('one'), item('two', 3)]);
    expect(second).toBe(first);
    expect(first).toEqual([item('one'), item('two', 3)]);
    expect(decks.size).toBe(1);
  });

  it('keeps a deck edited in between apart: a room plays the content it copied', () => {
    const decks = new SharedDecks();
    const before = decks.share([item('one')]);
    const after = decks.share([item('one', 2)]);
    expect(after).not.toBe(before);
    expect(before[0].correct).toBe(0);
    expect(decks.size).toBe(2);
  });

  it('freezes the copy to the choices, and the caller keeps its own array', () => {
    const mine = [item('one')];
    const shared = decks().share(mine);
    expect(Object.isFrozen(shared) && Object.isFrozen(shared[0]) && Object.isFrozen(shared[0].choices)).toBe(true);
    mine[0].choices[0] = 'changed';
    expect(shared[0].choices[0]).toBe('a');
  });
});

function decks(): SharedDecks {
  return new SharedDecks();
}
