import { CardsResult, CardsWrite } from '@app/games/cards';
import { RoomStore } from '@app/room-engine';
import { CardTableRepository } from './repositories/card-table.repository';
import { RoomRepository } from './repositories/room.repository';

/**
 * The card table's RoomStore: each of the rules' writes is exactly one repository call, one
 * statement, one round trip. Bots' actions are never written (the seed and the human's actions
 * determine them), so a human's action costs one statement and a hand's end at most one.
 */
export class CardsStore implements RoomStore<CardsWrite, CardsResult> {
  constructor(private readonly repos: { readonly tables: CardTableRepository; readonly rooms: RoomRepository }) {}

  async commit(writes: readonly CardsWrite[], timeoutMs: number): Promise<CardsResult[]> {
    const deadline = performance.now() + timeoutMs;
    const results: CardsResult[] = [];
    for (const write of writes) {
      await this.commitOne(write, deadline - performance.now());
      results.push({ kind: 'done' });
    }
    return results;
  }

  recordLateDeadline(roomId: string, due: number, at: number, timeoutMs: number): Promise<void> {
    return this.repos.rooms.recordLateDeadline(roomId, due, at, timeoutMs);
  }

  private commitOne(write: CardsWrite, timeoutMs: number): Promise<void> {
    switch (write.kind) {
      case 'act':
        return this.repos.tables.recordAction(write.tableId, write, write.finished, timeoutMs);
      case 'finishHand':
        return this.repos.tables.finishHand(write.tableId, write.checkpoint, timeoutMs);
      case 'rebuy':
        return this.repos.tables.recordRebuy(write.tableId, write, timeoutMs);
      case 'closeTable':
        return this.repos.tables.closeTable(write.tableId, write.reason, write.commandId, timeoutMs);
    }
  }
}
