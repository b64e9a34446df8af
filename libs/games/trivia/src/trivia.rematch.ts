import { Effect, RoomEvent } from '@app/room-engine';
import { Outcome, TriviaState } from './trivia.types';

/**
 * Decides the rematch the moment its outcome is fixed, or returns undefined while it is open. The
 * rematch is accepted once every voter has voted and at least `minPlayers` said yes. It is declined
 * as soon as the yes votes plus the votes still to come are fewer than `minPlayers`. After the
 * deadline, a voter who has not voted counts as a no.
 */
export function decideRematch(state: TriviaState, deadlinePassed: boolean, now: number): Outcome | undefined {
  const rematch = state.rematch;
  if (!rematch || rematch.decided) return undefined;
  const yes = rematch.voters.filter((id) => rematch.votes[id] === true);
  const pending = deadlinePassed ? 0 : rematch.voters.filter((id) => rematch.votes[id] === undefined).length;
  const min = state.settings.minPlayers;
  const accepted = pending === 0 && yes.length >= min;
  const declined = yes.length + pending < min;
  if (!accepted && !declined) return undefined;

  const decidedEvent: RoomEvent = { type: 'rematch.decided', data: { accepted, playerIds: yes } };
  if (!accepted) {
    return {
      state: { ...state, rematch: { ...rematch, decided: { accepted: false, playerIds: yes } } },
      events: [decidedEvent],
      effects: [],
    };
  }
  const releaseIds = state.players.filter((p) => !yes.includes(p.id)).map((p) => p.id);
  const players = state.players.filter((p) => yes.includes(p.id)).map((p) => ({ ...p, score: 0, correct: 0, elapsedSum: 0 }));
  const { game: _game, standings: _standings, ...rest } = state;
  const released: RoomEvent[] = releaseIds.map((playerId) => ({ type: 'player.left', data: { playerId, reason: 'released' } }));
  const effects: Effect[] = releaseIds.length ? [{ kind: 'release', seats: releaseIds }] : [];
  return {
    state: {
      ...rest,
      phase: 'lobby',
      players,
      // The decided rematch is kept until the next game starts, so that a late vote is told the
      // rematch is closed.
      rematch: { ...rematch, decided: { accepted: true, playerIds: yes } },
      expiresAt: now + state.settings.expirySeconds * 1000,
    },
    events: [decidedEvent, ...released],
    effects,
    resync: true,
  };
}
