import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The engine knows no game: not in code, not in comments, not in its tests. Issue 33's check,
// `grep -rliwE 'trivia|cards?|questions?|hold.?em'` over the four libs every game sits on, as a test.

const ROOT = join(__dirname, '../../..');
const LIBS = ['libs/room-engine', 'libs/gateway', 'libs/protocol', 'libs/persistence'];
const GAME_WORDS = /\b(trivia|cards?|questions?|hold.?em)\b/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(path);
    return [path];
  });
}

describe('the libraries every game sits on', () => {
  it.each(LIBS)('%s names no game', (lib) => {
    const naming = filesUnder(join(ROOT, lib))
      .filter((file) => GAME_WORDS.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(naming).toEqual([]);
  });

  it('finds a game word where there is one', () => {
    expect(['the trivia host', 'a card', 'Cards', 'the questions', "Texas hold'em", 'holdem'].every((t) => GAME_WORDS.test(t))).toBe(true);
    expect(['discard', 'scorecards', 'questionable'].some((t) => GAME_WORDS.test(t))).toBe(false);
  });
});
