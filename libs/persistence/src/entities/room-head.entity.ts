import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { RoomEntity } from './room.entity';

/**
 * A room's position and lease (the ordered-commits migration). The table's fillfactor (50) and the
 * trigger that adds a row for every new room are the migration's alone: an entity cannot say them.
 */
@Entity({ name: 'room_heads' })
export class RoomHeadEntity {
  @PrimaryColumn({ name: 'room_id', type: 'uuid', primaryKeyConstraintName: 'room_heads_pkey' })
  @ForeignKey(() => RoomEntity, { name: 'room_heads_room_id_fkey' })
  roomId: string;

  // bigint arrives from pg as a string.
  @Column({ name: 'commit_seq', type: 'bigint', default: 0 })
  commitSeq: string;

  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_fence', type: 'bigint', default: 0 })
  leaseFence: string;

  @Column({ name: 'wanted_by', type: 'text', nullable: true })
  wantedBy: string | null;
}
