import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A room is served by the instance holding its lease, and the proxy sends its traffic to the
 * instance its code hashes to. The two part when an instance that died comes back: the proxy
 * routes the rooms that moved off it to it again, while their leases stay with the instance that
 * took them, which is alive, so every new socket would be told to reconnect, for ever. So an
 * instance refused a room because another holds it writes its own name in `wanted_by`, and the
 * holder's next heartbeat releases the lease and lets the room go (its sockets reconnect through
 * the proxy and reach the instance that asked). Fencing keeps it safe: the holder's writes until
 * then are still in order, and the taker raises the fence when it loads the room.
 */
export class RoomHandoff1764842400000 implements MigrationInterface {
  name = 'RoomHandoff1764842400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE room_heads ADD COLUMN wanted_by text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE room_heads DROP COLUMN wanted_by');
  }
}
