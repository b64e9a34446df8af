import { Write } from './trivia.types';

/**
 * Folds the writes of commands that waited in the mailbox together into as few statements as
 * possible: all answers into one insert, all rematch votes (and the decision they reach) into one.
 */
export function mergeWrites(writes: readonly Write[]): Write[] {
  const merged: Write[] = [];
  for (const write of writes) {
    const last = merged[merged.length - 1];
    if (last?.kind === 'recordAnswers' && write.kind === 'recordAnswers' && last.gameId === write.gameId) {
      merged[merged.length - 1] = { ...last, answers: [...last.answers, ...write.answers], ...(write.close ?? last.close ? { close: write.close ?? last.close } : {}) };
    } else if (last?.kind === 'recordVotes' && write.kind === 'recordVotes' && last.gameId === write.gameId) {
      merged[merged.length - 1] = {
        ...last,
        votes: [...last.votes, ...write.votes],
        decision: write.decision ?? last.decision,
        ...(write.departure ?? last.departure ? { departure: write.departure ?? last.departure } : {}),
      };
    } else {
      merged.push(write);
    }
  }
  return merged;
}
