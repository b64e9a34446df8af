import { CardsResult, CardsWrite } from '@app/games/cards';
import { RoomPosition, RoomStore } from '@app/room-engine';
import { CardTableRepository } from './repositories/card-table.repository';
import { RoomRepository } from './repositories/room.repository';

/**
 * The card table's RoomStore: each of the rules' writes is exactly one repository call, one
 * statement, one round trip. Bots' actions are never written (the seed and the human's actions
 * determine them), so a human's action costs one statement and a hand's end at most one.
 */
export class CardsStore implements RoomStore<CardsWrite, CardsResult> {
  constructor(private readonly repos: { readonly tables: CardTableRepository; readonly rooms: RoomRepository }) {}

  async commit(writes: readonly CardsWrite[], at: RoomPosition, timeoutMs: number): Promise<CardsResult[]> {
    // Sent together, in order, on the table's ordered path: one round trip between them.
    await Promise.all(writes.map((write, i) => this.commitOne(write, { ...at, seq: at.seq + i }, timeoutMs)));
    return writes.map(() => ({ kind: 'done' }));
  }

  recordLateDeadline(position: RoomPosition, due: number, at: number, timeoutMs: number): Promise<void> {
    return this.repos.rooms.recordLateDeadline(position.roomId, due, at, timeoutMs, position);
  }

  private commitOne(write: CardsWrite, position: RoomPosition, timeoutMs: number): Promise<void> {
    switch (write.kind) {
      case 'act':
        return this.repos.tables.recordAction(write.tableId, write, write.finished, timeoutMs, position);
      case 'finishHand':
        return this.repos.tables.finishHand(write.tableId, write.checkpoint, timeoutMs, position);
      case 'rebuy':
        return this.repos.tables.recordRebuy(write.tableId, write, timeoutMs, position);
      case 'closeTable':
        return this.repos.tables.closeTable(write.tableId, write.reason, write.commandId, timeoutMs, position);
    }
  }
}
