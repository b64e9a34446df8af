import { Body, Controller, Delete, Get, Header, Headers, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { DeckListQuery, readQuery } from '@app/protocol';
import { DeckWriteGuard } from '../limits/anonymous-work.guard';
import { readDeckBody, readDeckName } from '../decks/deck-body';
import { presentedTokens } from '../decks/deck-token';
import { DECK_CSV_TEMPLATE, readDeckCsv } from '../decks/deck-csv';
import { DeckErrorCode, deckError } from '../decks/deck.errors';
import { DecksService } from '../decks/decks.service';
import {
  DescribeCreateDeck,
  DescribeDeckTemplate,
  DescribeDeleteDeck,
  DescribeImportDeck,
  DescribeListDecks,
  DescribeReadDeck,
  DescribeReplaceDeck,
} from './api-docs';

const bearer = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];

@Controller('api/decks')
export class DecksController {
  constructor(private readonly decks: DecksService) {}

  @Get()
  @DescribeListDecks()
  list(@Query('limit') limit?: string, @Query('cursor') cursor?: string, @Headers('authorization') authorization?: string) {
    const query = readQuery(DeckListQuery, { limit, cursor });
    return this.decks.list(presentedTokens(authorization), query.limit, query.cursor);
  }

  // This route comes before ':id', because otherwise `template.csv` would be taken for an id.
  @Get('template.csv')
  @DescribeDeckTemplate()
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('content-disposition', 'attachment; filename="deck-template.csv"')
  template() {
    return DECK_CSV_TEMPLATE;
  }

  @Post()
  @UseGuards(DeckWriteGuard)
  @DescribeCreateDeck()
  create(@Body() body: unknown) {
    return this.decks.create(readDeckBody(body));
  }

  @Post('import')
  @UseGuards(DeckWriteGuard)
  @DescribeImportDeck()
  import(@Query('name') name: unknown, @Body() body: unknown, @Headers('content-type') type?: string) {
    // The text parser reads text/csv and text/plain bodies (server.ts). A body of any other type
    // arrives unread.
    if (typeof body !== 'string' && !/^text\/(csv|plain)\b/i.test(type ?? '')) {
      throw deckError(DeckErrorCode.UnsupportedMediaType, 'send the CSV as the body with Content-Type: text/csv');
    }
    const deckName = readDeckName(name);
    return this.decks.create({ name: deckName, questions: readDeckCsv(typeof body === 'string' ? body : '') });
  }

  @Get(':id')
  @DescribeReadDeck()
  async read(@Param('id') id: string, @Res({ passthrough: true }) res: Response, @Headers('authorization') authorization?: string) {
    // `{id}.csv` is the deck's export in the import's format, for the holder of the deck's edit token.
    if (!id.endsWith('.csv')) return this.decks.read(id, bearer(authorization));
    const csv = await this.decks.exportCsv(id.slice(0, -4), bearer(authorization));
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="deck-${id.slice(0, -4).toLowerCase()}.csv"`);
    return csv;
  }

  @Put(':id')
  @DescribeReplaceDeck()
  replace(@Param('id') id: string, @Body() body: unknown, @Headers('authorization') authorization?: string) {
    return this.decks.replace(id, bearer(authorization), readDeckBody(body));
  }

  @Delete(':id')
  @DescribeDeleteDeck()
  @HttpCode(204)
  async remove(@Param('id') id: string, @Headers('authorization') authorization?: string) {
    await this.decks.remove(id, bearer(authorization));
  }
}
