import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A room's latest state at a game's boundary (created by the room-journal migration). */
@Entity({ name: 'room_snapshots' })
export class RoomSnapshotEntity {
  // There is no foreign key to rooms, because the guard that opens every write proves the room (migration 1764864000000).
  @PrimaryColumn({ name: 'room_id', type: 'uuid', primaryKeyConstraintName: 'room_snapshots_pkey' })
  roomId: string;

  @Column({ type: 'bigint' })
  seq: string;

  @Column({ name: 'at_ms', type: 'double precision' })
  atMs: number;

  @Column({ type: 'jsonb' })
  state: unknown;
}
