import { Seat, Standing } from './trivia.types';

/**
 * Returns the points for a right answer: 1000 at the instant the question opens, falling linearly to
 * 500 at its deadline. `elapsedMs` is clamped to the question's duration.
 */
export function pointsFor(elapsedMs: number, durationMs: number): number {
  const elapsed = Math.min(Math.max(elapsedMs, 0), durationMs);
  return Math.round(1000 * (1 - elapsed / durationMs / 2));
}

/**
 * Ranks by score, then by the smaller sum of elapsed time on right answers. Players equal on both
 * share a rank (1, 2, 2, 4). `fromOf` gives the first question each player could answer.
 */
export function rankStandings(seats: readonly Seat[], fromOf: (playerId: string) => number = () => 0): Standing[] {
  const sorted = [...seats].sort((a, b) => b.score - a.score || a.elapsedSum - b.elapsedSum);
  let rank = 0;
  return sorted.map((seat, i) => {
    const prev = sorted[i - 1];
    if (!prev || prev.score !== seat.score || prev.elapsedSum !== seat.elapsedSum) rank = i + 1;
    const from = fromOf(seat.id);
    // Only a late arrival gets `from`. Everybody else played from the first question, and their line
    // reads as it did before late arrivals existed.
    return { playerId: seat.id, name: seat.name, score: seat.score, correct: seat.correct, rank, ...(from > 0 ? { from } : {}) };
  });
}
