import { FinishedRecord } from '@app/room-engine';
import { GameSummary } from './trivia.types';

// A finished game's results as PROTOCOL.md section 12 gives them, from its summary: every
// question is closed by then, so nothing here is a secret any more.

/** The results' JSON: standings, and per question its right choice, the right-answer rate and every answer. */
export function resultsOf(summary: GameSummary) {
  const players = summary.standings.length;
  return {
    code: summary.code,
    number: summary.no,
    finishedAt: summary.finishedAt,
    standings: summary.standings,
    questions: summary.questions.map((q) => {
      const right = q.answers.filter((a) => a.correct).length;
      return {
        index: q.index,
        text: q.text,
        // Beyond section 12's fields: what each choice said, so that a reader sees more than its number.
        choices: q.choices,
        correct: q.correct,
        // Of the players in the game, those who answered right (one who did not answer was not).
        rightRate: players ? Math.round((right / players) * 10_000) / 10_000 : 0,
        answers: q.answers.map((a) => ({
          playerId: a.playerId,
          name: a.name,
          choice: a.choice,
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

export const RESULTS_CSV_HEADER = ['game', 'question', 'text', 'player', 'choice', 'right', 'points', 'ms'];

/**
 * One row per player per question (a player who did not answer: no choice, not right, 0 points):
 * the question by its number from 1, the choice by its text, as a spreadsheet reads them.
 */
export function resultsCsvRows(summary: GameSummary): string[][] {
  return summary.questions.flatMap((q) =>
    summary.standings.map((s) => {
      const a = q.answers.find((x) => x.playerId === s.playerId);
      return [
        String(summary.no),
        String(q.index + 1),
        q.text,
        s.name,
        a ? q.choices[a.choice] : '',
        a?.correct ? 'yes' : 'no',
        String(a?.points ?? 0),
        a ? String(a.elapsedMs) : '',
      ];
    }),
  );
}
