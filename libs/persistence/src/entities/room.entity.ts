import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { DeckEntity } from './deck.entity';

/** A room: its game, code, seed, and the settings it was opened with (`settings`). */
@Entity({ name: 'rooms' })
// Only a room from before the journal has no settings, and every such room is closed (migration 1764892800000).
@Check('rooms_settings', 'settings IS NOT NULL OR closed_at IS NOT NULL')
// A code names at most one open room, and a closed room frees its code.
@Index('rooms_open_code', ['code'], { unique: true, where: 'closed_at IS NULL' })
// In the migration the second column is descending, which an entity cannot express (the drift spec checks it).
@Index('rooms_code', ['code', 'createdAt'])
// A built-in deck is referenced (by its id and content hash), and a room never both references and copies a deck.
@Check('rooms_deck_reference', 'deck_hash IS NULL OR (deck_id IS NOT NULL AND deck IS NULL)')
// These two indexes serve the pruning's two scans (migration 1764882000000).
@Index('rooms_closed_unpruned', ['closedAt'], { where: 'closed_at IS NOT NULL AND pruned_at IS NULL' })
@Index('rooms_pruned', ['closedAt'], { where: 'pruned_at IS NOT NULL' })
// Whether any room names a host's deck, before the retention removes it (migration 1764896400000).
@Index('rooms_by_host_deck', ['deckId'], { where: 'deck_id IS NOT NULL AND deck_hash IS NULL' })
export class RoomEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'rooms_pkey' })
  id: string;

  @Column({ type: 'character', length: 6 })
  code: string;

  /** The deck the room opened with: a built-in one it references (with `deckHash`), or the host's deck it copied. */
  @Column({ name: 'deck_id', type: 'uuid', nullable: true })
  @ForeignKey(() => DeckEntity, { name: 'rooms_deck_id_fkey' })
  deckId: string | null;

  @Column({ name: 'created_at', type: 'timestamp with time zone', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'closed_at', type: 'timestamp with time zone', nullable: true })
  closedAt: Date | null;

  @Column({ name: 'closed_reason', type: 'text', nullable: true })
  closedReason: string | null;

  @Column({ type: 'text' })
  game: string;

  // This is the migration's default, `floor(random() * 2147483647)::integer`, as TypeORM reads it back (without casts).
  @Column({ type: 'integer', default: () => '(floor((random() * (2147483647))))' })
  seed: number;

  /** The settings the room was opened with (the game module's settings). It is null only for a closed room from before the journal. */
  @Column({ type: 'jsonb', nullable: true })
  settings: unknown;

  /** The copy of the deck the room plays from, for a game that plays from one (a host's deck). */
  @Column({ type: 'jsonb', nullable: true })
  deck: unknown;

  /** For a built-in deck, which the room references instead of copying: the SHA-256 of its content (base64url), beside `deckId`. */
  @Column({ name: 'deck_hash', type: 'text', nullable: true })
  deckHash: string | null;

  /** When the closed room's journal, snapshot and deck copy were removed (after the results window). */
  @Column({ name: 'pruned_at', type: 'timestamp with time zone', nullable: true })
  prunedAt: Date | null;
}
