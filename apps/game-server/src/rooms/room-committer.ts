import { AnswerRepository, GameAnswerRow, GameRepository, PlayerRepository, RematchRepository, RoomRepository, StartedGame } from '@app/persistence';
import { TurnBatcher } from '@app/room-engine';
import { Write } from '@app/trivia';

export interface Repositories {
  readonly rooms: RoomRepository;
  readonly players: PlayerRepository;
  readonly games: GameRepository;
  readonly answers: AnswerRepository;
  readonly rematches: RematchRepository;
}

/** What a committed write hands back to the rules (only a started game carries data). */
export type CommitResult = { kind: 'startGame'; started: StartedGame | null } | { kind: 'done' };

/**
 * Turns each of the rules' writes into exactly one repository call: one statement, one round
 * trip. Answers are the busiest write, so the answers of every room that commits in the same
 * turn share one insert (still one round trip on each room's path).
 */
export class RoomCommitter {
  private readonly answers: TurnBatcher<GameAnswerRow>;

  constructor(private readonly repos: Repositories) {
    this.answers = new TurnBatcher((rows) => repos.answers.recordAnswers(rows));
  }

  async commit(write: Write): Promise<CommitResult> {
    switch (write.kind) {
      case 'addPlayer':
        await this.repos.players.addPlayer(write.roomId, write.playerId, write.name);
        return { kind: 'done' };
      case 'startGame':
        return { kind: 'startGame', started: await this.repos.games.startGame(write) };
      case 'recordAnswers':
        await this.answers.submit(write.answers.map((a) => ({ ...a, gameId: write.gameId })));
        return { kind: 'done' };
      case 'finishGame':
        await this.repos.games.finishGame(
          write.roomId,
          write.gameId,
          write.standings.map((s) => ({ ...s, elapsedMs: write.elapsedSums[s.playerId] ?? 0 })),
        );
        return { kind: 'done' };
      case 'recordVotes':
        await this.repos.rematches.recordVotes(
          write.gameId,
          write.votes,
          write.decision?.accepted ? { roomId: write.decision.roomId, releaseIds: write.decision.releaseIds } : undefined,
        );
        return { kind: 'done' };
      case 'releasePlayers':
        await this.repos.players.releasePlayers(write.roomId, write.playerIds, write.reason);
        return { kind: 'done' };
      case 'closeRoom':
        await this.repos.rooms.closeRoom({ roomId: write.roomId }, write.reason);
        return { kind: 'done' };
    }
  }
}
