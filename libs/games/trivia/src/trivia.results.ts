import { FinishedRecord } from '@app/room-engine';
import { givenIn, givenWords } from './trivia.kinds';
import { GameSummary } from './trivia.types';

// A finished game's results as PROTOCOL.md section 12 gives them, from its summary: every
// question is closed by then, so nothing here is a secret any more.

/**
 * The results' JSON: standings (each with `from`, the first question the player could answer),
 * and per question its kind, its right answer, the right-answer rate and every answer as it was
 * given: `choice`, `choices` (multi) or `text` (the typed text, which only the results show).
 */
export function resultsOf(summary: GameSummary) {
  return {
    code: summary.code,
    number: summary.no,
    finishedAt: summary.finishedAt,
    // A summary from before late arrivals has no `from`: everybody played from the first question.
    standings: summary.standings.map((s) => ({ ...s, from: s.from ?? 0 })),
    questions: summary.questions.map((q) => {
      const right = q.answers.filter((a) => a.correct).length;
      // Of the players who could answer it (a late arrival could not answer what came before), those who answered right.
      const players = summary.standings.filter((s) => (s.from ?? 0) <= q.index).length;
      const kind = q.kind ?? 'choice';
      return {
        index: q.index,
        text: q.text,
        kind,
        // Beyond section 12's fields: what each choice said, so that a reader sees more than its number.
        ...(kind === 'text' ? {} : { choices: q.choices }),
        correct: q.correct,
        // A poll has no right answer, so no rate either.
        rightRate: kind === 'poll' ? null : players ? Math.round((right / players) * 10_000) / 10_000 : 0,
        answers: q.answers.map((a) => ({
          playerId: a.playerId,
          name: a.name,
          ...givenIn(a),
          right: a.correct,
          points: a.points,
          ms: a.elapsedMs,
        })),
      };
    }),
  };
}

/** The console's line: the host, the players by standing, and whoever ranked first (all of them, when tied). */
export function finishedRecordOf(summary: GameSummary): FinishedRecord {
  const first = summary.standings.filter((s) => s.rank === 1).map((s) => s.name);
  return {
    hostName: summary.hostName ?? null,
    players: summary.standings.map((s) => s.name),
    winner: first.length ? first.join(', ') : null,
    startedAt: summary.startedAt,
  };
}

/** Section 12's columns, which spreadsheets already read by place: each kind fits in them. */
export const RESULTS_CSV_HEADER = ['game', 'question', 'text', 'player', 'choice', 'right', 'points', 'ms'];

/**
 * One row per player per question (a player who did not answer: no choice, not right, 0 points):
 * the question by its number from 1, the answer in words (the choice's text, a multi answer's
 * choices joined by " | ", the typed text), as a spreadsheet reads them. A poll's answers are
 * neither right nor wrong: its `right` cell is empty. A late arrival has no rows for the
 * questions before the first it could answer (the JSON's `from`).
 */
export function resultsCsvRows(summary: GameSummary): string[][] {
  return summary.questions.flatMap((q) =>
    summary.standings
      .filter((s) => (s.from ?? 0) <= q.index)
      .map((s) => {
        const a = q.answers.find((x) => x.playerId === s.playerId);
        return [
          String(summary.no),
          String(q.index + 1),
          q.text,
          s.name,
          a ? givenWords(q, a) : '',
          q.kind === 'poll' ? '' : a?.correct ? 'yes' : 'no',
          String(a?.points ?? 0),
          a ? String(a.elapsedMs) : '',
        ];
      }),
  );
}
