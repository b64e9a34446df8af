import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { RoomEntity } from './room.entity';

/**
 * A room's position and lease (created by the ordered-commits migration). Some parts exist only in
 * the migrations, because an entity cannot express them: the table's fillfactor (50), the trigger
 * that adds a row for every new room, and the trigger that marks where a lease moved from
 * (migration 1764874800000).
 */
@Entity({ name: 'room_heads' })
@Index('room_heads_moved', ['movedFrom', 'movedAt'], { where: 'moved_from IS NOT NULL' })
@Index('room_heads_wanted', ['leaseOwner'], { where: 'wanted_by IS NOT NULL' })
export class RoomHeadEntity {
  @PrimaryColumn({ name: 'room_id', type: 'uuid', primaryKeyConstraintName: 'room_heads_pkey' })
  @ForeignKey(() => RoomEntity, { name: 'room_heads_room_id_fkey' })
  roomId: string;

  // pg returns a bigint as a string.
  @Column({ name: 'commit_seq', type: 'bigint', default: 0 })
  commitSeq: string;

  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_fence', type: 'bigint', default: 0 })
  leaseFence: string;

  @Column({ name: 'wanted_by', type: 'text', nullable: true })
  wantedBy: string | null;

  /** The owner the lease last moved away from. A trigger sets it when `lease_owner` changes. */
  @Column({ name: 'moved_from', type: 'text', nullable: true })
  movedFrom: string | null;

  @Column({ name: 'moved_at', type: 'timestamp with time zone', nullable: true })
  movedAt: Date | null;
}
