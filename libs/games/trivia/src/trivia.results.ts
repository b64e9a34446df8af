import { FinishedRecord } from '@app/room-engine';
import { givenIn, givenWords } from './trivia.kinds';
import { GameSummary } from './trivia.types';

// These functions give a finished game's results, as PROTOCOL.md section 12 describes them, from the
// game's summary. Every question is closed by then, so nothing here is a secret any more.

/**
 * Builds the results' JSON. It holds the standings, each with `from` (the first question the player
 * could answer). For each question it holds the kind, the right answer, the right-answer rate, and
 * every answer as it was given: `choice`, `choices` (multi) or `text` (the typed text, which only the
 * results show).
 */
export function resultsOf(summary: GameSummary) {
  return {
    code: summary.code,
    number: summary.no,
    finishedAt: summary.finishedAt,
    // A summary from before late arrivals existed has no `from`, because everybody played from the
    // first question.
    standings: summary.standings.map((s) => ({ ...s, from: s.from ?? 0 })),
    questions: summary.questions.map((q) => {
      const right = q.answers.filter((a) => a.correct).length;
      // The rate is over the players who could answer the question, because a late arrival could not
      // answer what came before.
      const players = summary.standings.filter((s) => (s.from ?? 0) <= q.index).length;
      const kind = q.kind ?? 'choice';
      return {
        index: q.index,
        text: q.text,
        kind,
        // This goes beyond section 12's fields: it says what each choice said, so that a reader sees
        // more than the choice's number.
        ...(kind === 'text' ? {} : { choices: q.choices }),
        correct: q.correct,
        // A poll has no right answer, so it has no rate either.
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

/** Builds the console's line: the host, the players by standing, and whoever ranked first (all of them, when tied). */
export function finishedRecordOf(summary: GameSummary): FinishedRecord {
  const first = summary.standings.filter((s) => s.rank === 1).map((s) => s.name);
  return {
    hostName: summary.hostName ?? null,
    players: summary.standings.map((s) => s.name),
    winner: first.length ? first.join(', ') : null,
    startedAt: summary.startedAt,
  };
}

/** Section 12's columns, which spreadsheets already read by place. Every kind of question fits in them. */
export const RESULTS_CSV_HEADER = ['game', 'question', 'text', 'player', 'choice', 'right', 'points', 'ms'];

/**
 * Writes one row per player per question, as a spreadsheet reads them. A player who did not answer
 * gets no choice, not right, and 0 points. The question is given by its number, counted from 1. The
 * answer is given in words: the choice's text, a multi answer's choices joined by " | ", or the typed
 * text. A poll's answers are neither right nor wrong, so its `right` cell is empty. A late arrival
 * has no rows for the questions before the first one that player could answer (the JSON's `from`).
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
