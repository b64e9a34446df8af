import { RoomPosition } from '@app/room-engine';
import { ActionKind, HandCheckpoint, TableSettings } from '@app/games/cards';
import { Database } from '../database';
import { OPEN_ROOM } from './open-room';

export interface NewTable {
  readonly id: string;
  readonly code: string;
  readonly playerId: string;
  readonly settings: TableSettings;
  readonly checkpoint: HandCheckpoint;
}

export interface TableAction {
  readonly hand: number;
  readonly seq: number;
  readonly action: ActionKind;
  readonly amount: number | null;
  readonly at: number;
  readonly commandId: string;
}

export interface TableRebuy {
  readonly afterHand: number;
  readonly stack: number;
  readonly at: number;
  readonly commandId: string;
}

/**
 * A card table's writes, each one statement: its opening, the human's actions and rebuys, each
 * hand's end (its checkpoint) and its closing. A table is a `rooms` row with game 'cards'; its
 * loading is part of RoomRepository.loadRooms, so that rooms of both games activate together.
 */
export class CardTableRepository {
  constructor(private readonly db: Database) {}

  /** Opens a table, unless its code names an open room of either game. */
  async openTable(table: NewTable, timeoutMs?: number): Promise<'created' | 'code_taken'> {
    const rows = await this.db.run(
      'CardTableRepository.openTable',
      `INSERT INTO rooms (id, code, game, host_name, player_id, table_settings, checkpoint, phase, seed)
       VALUES ($1, $2, 'cards', $3, $4, $5::jsonb, $6::jsonb, 'between', $7)
       ON CONFLICT (code) WHERE closed_at IS NULL DO NOTHING
       RETURNING id`,
      // The engine's own seed (unused by the rules, which draw from the table's) fits an integer column.
      [table.id, table.code, table.settings.name, table.playerId, JSON.stringify(table.settings), JSON.stringify(table.checkpoint), table.settings.seed | 0],
      timeoutMs,
    );
    return rows.length === 1 ? 'created' : 'code_taken';
  }

  /** The human's action; when it finished the hand, that hand's checkpoint in the same statement. */
  async recordAction(tableId: string, action: TableAction, finished: HandCheckpoint | undefined, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    const insert = `INSERT INTO table_actions (room_id, hand, seq, action, amount, at_ms, command_id)
                    VALUES ($1, $2, $3, $4, $5, $6, $7)`;
    const params = [tableId, action.hand, action.seq, action.action, action.amount, action.at, action.commandId];
    await this.db.write(
      {
        name: finished ? 'CardTableRepository.recordFinishingAction' : 'CardTableRepository.recordAction',
        sql: finished ? `WITH acted AS (${insert}) UPDATE rooms SET checkpoint = $8::jsonb, games_played = $9, last_game_at = now() WHERE id = $1` : insert,
        params: finished ? [...params, JSON.stringify(finished), finished.number] : params,
        position,
      },
      timeoutMs,
    );
  }

  /** A hand's end that no human action finished (a bot's action or a clock): its checkpoint. */
  async finishHand(tableId: string, checkpoint: HandCheckpoint, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'CardTableRepository.finishHand',
        sql: `UPDATE rooms SET checkpoint = $2::jsonb, games_played = $3, last_game_at = now() WHERE id = $1`,
        params: [tableId, JSON.stringify(checkpoint), checkpoint.number],
        position,
      },
      timeoutMs,
    );
  }

  async recordRebuy(tableId: string, rebuy: TableRebuy, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'CardTableRepository.recordRebuy',
        sql: `INSERT INTO table_rebuys (room_id, after_hand, stack, at_ms, command_id) VALUES ($1, $2, $3, $4, $5)`,
        params: [tableId, rebuy.afterHand, rebuy.stack, rebuy.at, rebuy.commandId],
        position,
      },
      timeoutMs,
    );
  }

  /** The table closed itself (the human left, or it expired); closing a closed table changes nothing. */
  async closeTable(tableId: string, reason: string, commandId: string | null, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'CardTableRepository.closeTable',
        sql: `UPDATE rooms SET closed_at = now(), closed_reason = $2, closed_command_id = $3, phase = 'closed'
       WHERE id = $1 AND ${OPEN_ROOM}`,
        params: [tableId, reason, commandId],
        position,
      },
      timeoutMs,
    );
  }
}
