import { Question, QuestionOrder } from './trivia.types';

/**
 * Draws a game's questions from the room's deck with the rules' random source. Questions not yet
 * played in this room come first, in random order, then the played ones. That way a small deck deals
 * again only what it must, as the database's draw did (`ORDER BY played, random()`). With the
 * deck's order (`order: "deck"`) the draw is the same, but each part keeps the order of the deck.
 */
export function drawQuestions(
  deck: readonly Question[],
  count: number,
  played: readonly number[],
  random: () => number,
  order: QuestionOrder = 'shuffled',
): Question[] {
  const seen = new Set(played);
  const fresh = deck.filter((q) => !seen.has(q.id));
  const again = deck.filter((q) => seen.has(q.id));
  if (order === 'deck') return [...fresh, ...again].slice(0, count);
  return [...shuffled(fresh, random), ...shuffled(again, random)].slice(0, count);
}

/** Shuffles a copy with Fisher-Yates. The same random draws give the same order. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
