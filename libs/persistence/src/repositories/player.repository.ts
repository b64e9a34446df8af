import { Database } from '../database';

export class PlayerRepository {
  constructor(private readonly db: Database) {}

  async addPlayer(roomId: string, playerId: string, name: string): Promise<void> {
    await this.db.run('PlayerRepository.addPlayer', `INSERT INTO players (id, room_id, name) VALUES ($1, $2, $3)`, [playerId, roomId, name]);
  }

  async releasePlayers(roomId: string, playerIds: readonly string[], reason: string): Promise<void> {
    await this.db.run(
      'PlayerRepository.releasePlayers',
      `UPDATE players SET left_at = now(), left_reason = $3
       WHERE room_id = $1 AND id = ANY($2::uuid[]) AND left_at IS NULL`,
      [roomId, playerIds, reason],
    );
  }
}
