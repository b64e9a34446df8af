import { QuestionClose, TriviaResult, Write } from '@app/games/trivia';
import { RoomPosition, RoomStore } from '@app/room-engine';
import { AnswerRepository, QuestionCloseRow } from './repositories/answer.repository';
import { GameRepository } from './repositories/game.repository';
import { PlayerRepository } from './repositories/player.repository';
import { RematchRepository } from './repositories/rematch.repository';
import { RoomRepository } from './repositories/room.repository';

export interface TriviaRepositories {
  readonly rooms: RoomRepository;
  readonly players: PlayerRepository;
  readonly games: GameRepository;
  readonly answers: AnswerRepository;
  readonly rematches: RematchRepository;
}

/**
 * Trivia's RoomStore: each of the rules' writes is exactly one repository call, one statement,
 * one round trip. A batch's writes are sent together, in order, on the room's ordered path, so
 * that they cost one round trip between them; answers of rooms that commit in the same turn
 * share one insert there.
 */
export class TriviaStore implements RoomStore<Write, TriviaResult> {
  constructor(private readonly repos: TriviaRepositories) {}

  commit(writes: readonly Write[], at: RoomPosition, timeoutMs: number): Promise<TriviaResult[]> {
    return Promise.all(writes.map((write, i) => this.commitOne(write, { ...at, seq: at.seq + i }, timeoutMs)));
  }

  recordLateDeadline(position: RoomPosition, due: number, at: number, timeoutMs: number): Promise<void> {
    return this.repos.rooms.recordLateDeadline(position.roomId, due, at, timeoutMs, position);
  }

  private async commitOne(write: Write, position: RoomPosition, timeoutMs: number): Promise<TriviaResult> {
    const done: TriviaResult = { kind: 'done' };
    switch (write.kind) {
      case 'addPlayer':
        await this.repos.players.addPlayer(write.roomId, write.playerId, write.name, timeoutMs, position);
        return done;
      case 'startGame':
        return { kind: 'startGame', started: await this.repos.games.startGame(write, timeoutMs, position) };
      case 'recordAnswers':
        await this.repos.answers.recordAnswers(
          write.answers.map((a) => ({ ...a, gameId: write.gameId })),
          write.close ? [closeRow(write.close)] : [],
          timeoutMs,
          position,
        );
        return done;
      case 'closeQuestion':
        await this.repos.answers.recordClose(closeRow(write.close), timeoutMs, position);
        return done;
      case 'finishGame':
        await this.repos.games.finishGame(
          write.roomId,
          write.gameId,
          write.standings.map((s) => ({ ...s, elapsedMs: write.elapsedSums[s.playerId] ?? 0 })),
          timeoutMs,
          position,
        );
        return done;
      case 'recordVotes': {
        const accepted = write.decision?.accepted ? { roomId: write.decision.roomId, releaseIds: write.decision.releaseIds } : undefined;
        const departure = write.departure && { ...write.departure, roomId: write.decision?.roomId ?? '' };
        await this.repos.rematches.recordVotes(write.gameId, write.votes, accepted, departure, timeoutMs, position);
        return done;
      }
      case 'releasePlayers':
        await this.repos.players.releasePlayer(write.roomId, write.departure, write.close && closeRow(write.close), timeoutMs, position);
        return done;
      case 'closeRoom':
        await this.repos.rooms.closeRoom({ roomId: write.roomId }, write.reason, timeoutMs, position);
        return done;
    }
  }
}

function closeRow(close: QuestionClose): QuestionCloseRow {
  return { gameId: close.gameId, index: close.index, at: close.at };
}
