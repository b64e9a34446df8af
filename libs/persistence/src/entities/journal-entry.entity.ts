import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** One input a room accepted (created by the room-journal migration). */
@Entity({ name: 'room_journal' })
@Check('room_journal_kind', `kind IN ('command', 'proposal', 'signal', 'late_deadline', 'clock_held')`)
export class JournalEntryEntity {
  // There is no foreign key to rooms, because the guard that opens every write proves the room (migration 1764864000000).
  @PrimaryColumn({ name: 'room_id', type: 'uuid', primaryKeyConstraintName: 'room_journal_pkey' })
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
