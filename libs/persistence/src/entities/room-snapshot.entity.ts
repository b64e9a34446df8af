import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { RoomEntity } from './room.entity';

/** A room's latest state at a game's boundary (the room-journal migration). */
@Entity({ name: 'room_snapshots' })
export class RoomSnapshotEntity {
  @PrimaryColumn({ name: 'room_id', type: 'uuid', primaryKeyConstraintName: 'room_snapshots_pkey' })
  @ForeignKey(() => RoomEntity, { name: 'room_snapshots_room_id_fkey' })
  roomId: string;

  @Column({ type: 'bigint' })
  seq: string;

  @Column({ name: 'at_ms', type: 'double precision' })
  atMs: number;

  @Column({ type: 'jsonb' })
  state: unknown;
}
