import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { RoomEntity } from './room.entity';

/** One input a room accepted (the room-journal migration). */
@Entity({ name: 'room_journal' })
@Check('room_journal_kind', `kind IN ('command', 'proposal', 'signal', 'late_deadline')`)
export class JournalEntryEntity {
  @PrimaryColumn({ name: 'room_id', type: 'uuid', primaryKeyConstraintName: 'room_journal_pkey' })
  @ForeignKey(() => RoomEntity, { name: 'room_journal_room_id_fkey' })
  roomId: string;

  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'room_journal_pkey' })
  seq: string;

  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'room_journal_pkey' })
  idx: number;

  @Column({ name: 'at_ms', type: 'double precision' })
  atMs: number;

  @Column({ type: 'text' })
  kind: string;

  @Column({ type: 'jsonb', nullable: true })
  actor: unknown;

  @Column({ name: 'command_id', type: 'text', nullable: true })
  commandId: string | null;

  @Column({ type: 'jsonb' })
  body: unknown;
}
