import { Controller, Get, Inject, Param, Res, Type } from '@nestjs/common';
import type { Response } from 'express';
import { JournalRepository } from '@app/persistence';
import { RoomException } from '@app/protocol';
import { GameRegistry } from '../rooms/games';
import { ServerConfig } from '../config/server-config';
import { resultsKeptDays, resultsReadableUntil } from '../retention/retention-windows';
import { SERVER_CONFIG } from '../tokens';
import { DescribeResults } from './api-docs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Serves a finished game's results by its unguessable link, as `GET /api/results/{id}` (JSON) and
 * `/api/results/{id}.csv`. The results are read from the game's record (`finished_games`) through
 * its game's module. The controller is built for the registry it is given, because the API document
 * names each game's CSV columns.
 */
export function resultsController(registry: GameRegistry): Type {
  @Controller('api/results')
  class ResultsController {
    constructor(
      private readonly journal: JournalRepository,
      @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    ) {}

    @Get(':id')
    @DescribeResults(registry)
    async results(@Param('id') raw: string, @Res({ passthrough: true }) res: Response) {
      const csv = raw.endsWith('.csv');
      const id = csv ? raw.slice(0, -4) : raw;
      // A results link lives as long as the results window (PROTOCOL.md section 12). The window is
      // checked here, because a row past it may not have been pruned yet.
      const keptDays = resultsKeptDays(this.config);
      const found = UUID.test(id) ? await this.journal.result(id.toLowerCase(), keptDays) : undefined;
      const report = found && registry.games.find((g) => g.kind === found.game)?.results;
      if (!found || !report)
        throw new RoomException('results_not_found', `no results have id ${id.slice(0, 40)} (results are kept ${keptDays} days)`, {
          status: 404,
        });
      // Say when the link stops answering, so that a page can show it. That is the record's commit
      // time plus the results window, which the operator sets.
      if (!csv) return { ...(report.json(found.summary) as object), readableUntil: resultsReadableUntil(found.finishedAt, this.config) };
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="results-${id}.csv"`);
      return [report.csvHeader, ...report.csvRows(found.summary)].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
    }
  }
  return ResultsController;
}

/**
 * Quotes a CSV cell as RFC 4180 does. A text that a spreadsheet would read as a formula (a player
 * named "=HYPERLINK(...)") gets a leading apostrophe, so that opening the file runs nothing.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
