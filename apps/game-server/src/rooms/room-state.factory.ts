import { StoredRoom } from '@app/persistence';
import { Phase } from '@app/protocol';
import { TriviaState } from '@app/trivia';

export const REMATCH_SECONDS = 30;

/**
 * The actor's state from what PostgreSQL holds. A game that was running when its actor went
 * away (a restart) cannot resume its clock yet, so such a room comes back to the lobby with its
 * players; its committed answers stay in the database.
 */
export function stateFromStored(room: StoredRoom, expirySeconds: number): TriviaState {
  const phase: Phase = room.closed ? 'closed' : room.phase === 'finished' ? 'finished' : 'lobby';
  const standings = phase === 'finished' ? (room.lastStandings ?? []) : undefined;
  const scoreOf = (id: string) => standings?.find((s) => s.playerId === id);
  return {
    roomId: room.id,
    code: room.code,
    hostName: room.hostName,
    phase,
    settings: {
      deckId: room.deckId,
      questionCount: room.questionCount,
      secondsPerQuestion: room.secondsPerQuestion,
      revealSeconds: room.revealSeconds,
      maxPlayers: room.maxPlayers,
      minPlayers: room.minPlayers,
      rematchSeconds: REMATCH_SECONDS,
      expirySeconds,
    },
    players: room.players.map((p) => ({
      id: p.id,
      name: p.name,
      connected: false,
      score: scoreOf(p.id)?.score ?? 0,
      correct: scoreOf(p.id)?.correct ?? 0,
      elapsedSum: 0,
    })),
    gamesPlayed: room.gamesPlayed,
    standings,
    expiresAt: room.lastGameAt + expirySeconds * 1000,
    playedQuestionIds: room.playedQuestionIds,
  };
}
