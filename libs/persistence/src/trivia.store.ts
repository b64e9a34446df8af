import { QuestionClose, TriviaResult, Write } from '@app/games/trivia';
import { RoomStore, TurnBatcher } from '@app/room-engine';
import { AnswerRepository, GameAnswerRow, QuestionCloseRow } from './repositories/answer.repository';
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

type AnswersBatch = { answers: readonly GameAnswerRow[]; closes: readonly QuestionCloseRow[] };

/**
 * Trivia's RoomStore: each of the rules' writes is exactly one repository call, one statement,
 * one round trip. Answers are the busiest write, so the answers of every room that commits in
 * the same turn share one insert (still one round trip on each room's path).
 */
export class TriviaStore implements RoomStore<Write, TriviaResult> {
  private readonly answers: TurnBatcher<AnswersBatch>;

  constructor(private readonly repos: TriviaRepositories) {
    this.answers = new TurnBatcher((batches, timeoutMs) =>
      repos.answers.recordAnswers(
        batches.flatMap((b) => b.answers),
        batches.flatMap((b) => b.closes),
        timeoutMs,
      ),
    );
  }

  async commit(writes: readonly Write[], timeoutMs: number): Promise<TriviaResult[]> {
    const deadline = performance.now() + timeoutMs;
    const results: TriviaResult[] = [];
    for (const write of writes) results.push(await this.commitOne(write, deadline - performance.now()));
    return results;
  }

  recordLateDeadline(roomId: string, due: number, at: number, timeoutMs: number): Promise<void> {
    return this.repos.rooms.recordLateDeadline(roomId, due, at, timeoutMs);
  }

  private async commitOne(write: Write, timeoutMs: number): Promise<TriviaResult> {
    const done: TriviaResult = { kind: 'done' };
    switch (write.kind) {
      case 'addPlayer':
        await this.repos.players.addPlayer(write.roomId, write.playerId, write.name, timeoutMs);
        return done;
      case 'startGame':
        return { kind: 'startGame', started: await this.repos.games.startGame(write, timeoutMs) };
      case 'recordAnswers':
        await this.answers.submit(
          [{ answers: write.answers.map((a) => ({ ...a, gameId: write.gameId })), closes: write.close ? [closeRow(write.close)] : [] }],
          timeoutMs,
        );
        return done;
      case 'closeQuestion':
        await this.repos.answers.recordClose(closeRow(write.close), timeoutMs);
        return done;
      case 'finishGame':
        await this.repos.games.finishGame(
          write.roomId,
          write.gameId,
          write.standings.map((s) => ({ ...s, elapsedMs: write.elapsedSums[s.playerId] ?? 0 })),
          timeoutMs,
        );
        return done;
      case 'recordVotes': {
        const accepted = write.decision?.accepted ? { roomId: write.decision.roomId, releaseIds: write.decision.releaseIds } : undefined;
        const departure = write.departure && { ...write.departure, roomId: write.decision?.roomId ?? '' };
        await this.repos.rematches.recordVotes(write.gameId, write.votes, accepted, departure, timeoutMs);
        return done;
      }
      case 'releasePlayers':
        await this.repos.players.releasePlayer(write.roomId, write.departure, write.close && closeRow(write.close), timeoutMs);
        return done;
      case 'closeRoom':
        await this.repos.rooms.closeRoom({ roomId: write.roomId }, write.reason, timeoutMs);
        return done;
    }
  }
}

function closeRow(close: QuestionClose): QuestionCloseRow {
  return { gameId: close.gameId, index: close.index, at: close.at };
}
