import { Inject, Injectable } from '@nestjs/common';
import { FinishedGameRow, FinishedGamesRepository, RefusalRepository } from '@app/persistence';
import { FinishedGame, FinishedPage, RefusalsPage, RoomErrorCode, RoomException } from '@app/protocol';
import { ServerConfig, statementTimeoutMs } from '../config/server-config';
import { DEFAULT_REFUSALS_KEPT_DAYS } from '../refusals/refusal-recorder';
import { resultsReadableUntil } from '../retention/retention-windows';
import { GameRegistry } from '../rooms/games';
import { RoomsService } from '../rooms/rooms.service';
import { SERVER_CONFIG } from '../tokens';
import { encodeCursor } from './history-query';

/** One finished game in the console's list, as its schema (packages/client/src/http/admin.ts) has it. */
export type FinishedGameLine = FinishedGame;
export type StartedFrom = FinishedGame['startedFrom'];

/** Reads what operators see of the past, finished games and refused commands, from PostgreSQL. */
@Injectable()
export class AdminHistoryService {
  constructor(
    private readonly finished: FinishedGamesRepository,
    private readonly refusals: RefusalRepository,
    private readonly rooms: RoomsService,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    private readonly registry: GameRegistry,
  ) {}

  get refusalsKeptDays(): number {
    return this.config.refusalsKeptDays ?? DEFAULT_REFUSALS_KEPT_DAYS;
  }

  async finishedGames(q: {
    code?: string;
    from?: number;
    to?: number;
    after?: { finishedUs: string; id: string };
    limit: number;
  }): Promise<FinishedPage> {
    // The query asks for one row more than the page holds, to learn whether there is a next page.
    const rows = await this.finished.page({ ...q, limit: q.limit + 1 }, this.timeoutMs);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      games: page.map((row) => lineOf(row, this.registry)),
      next: rows.length > q.limit && last ? encodeCursor(last.finishedUs, last.id) : null,
    };
  }

  /**
   * Returns one finished game with its results as `GET /api/results/{id}` gives them. It does so
   * even after that route's public window has closed.
   */
  async finishedGame(id: string | undefined) {
    const row = id ? await this.finished.one(id, this.timeoutMs) : undefined;
    if (!row)
      throw new RoomException('finished_game_not_found', `no finished game has id ${String(id ?? '').slice(0, 40) || '(not a uuid)'}`, {
        status: 404,
      });
    const report = this.registry.games.find((g) => g.kind === row.game)?.results;
    return {
      ...lineOf(row, this.registry),
      // The public link answers until this time, but operators can read the row as long as it exists.
      publicUntil: resultsReadableUntil(row.finishedAt, this.config),
      results: report ? report.json(row.summary) : null,
    };
  }

  async refusedCommands(code: string, limit: number, after?: { atUs: string; id: string }): Promise<RefusalsPage> {
    const found = await this.refusals.page(code, this.refusalsKeptDays, limit + 1, after, this.timeoutMs);
    if (!found) throw new RoomException(RoomErrorCode.RoomNotFound, `no room has had code ${code}`);
    const page = found.refusals.slice(0, limit);
    const last = page[page.length - 1];
    const live = this.rooms.registry.peek(code);
    return {
      code,
      roomId: found.roomId,
      live: live?.roomId === found.roomId,
      keptDays: this.refusalsKeptDays,
      refusals: page.map((r) => ({
        at: r.atMs,
        by: r.by,
        playerId: r.seat,
        name: r.name,
        type: r.type,
        code: r.code,
        status: r.status,
        message: r.message,
      })),
      next: found.refusals.length > limit && last ? encodeCursor(last.atUs, last.id) : null,
    };
  }

  private get timeoutMs(): number {
    return statementTimeoutMs(this.config);
  }
}

/**
 * Turns a row into a line of the console's list, through the row's game module. The game's start is
 * the summary's own when the game reports one. Otherwise it is the end of the room's previous game,
 * and failing that, the room's opening.
 */
function lineOf(row: FinishedGameRow, registry: GameRegistry): FinishedGameLine {
  const record = registry.games.find((g) => g.kind === row.game)?.finishedRecord?.(row.summary);
  const started: [number, StartedFrom] =
    record?.startedAt !== undefined
      ? [record.startedAt, 'summary']
      : row.previousFinishedAt !== null
        ? [row.previousFinishedAt, 'previous_game']
        : [row.roomOpenedAt, 'room_opened'];
  const names = record?.players ?? [];
  return {
    id: row.id,
    resultsId: row.id,
    code: row.code,
    game: row.game,
    number: row.gameNo,
    hostName: record?.hostName ?? null,
    players: { count: names.length, names: [...names] },
    winner: record?.winner ?? null,
    startedAt: started[0],
    startedFrom: started[1],
    finishedAt: row.finishedAt,
  };
}
