import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { DeckEntity } from './deck.entity';

/** An image a host uploaded to a deck, as the server re-encoded it (migration 1764903600000). */
@Entity({ name: 'deck_images' })
@Check('deck_images_size', 'width > 0 AND height > 0 AND size = octet_length(bytes)')
@Index('deck_images_by_deck', ['deckId'])
// The pruning's scan: images of deleted decks that an open room still showed.
@Index('deck_images_orphaned', ['orphanedAt'], { where: 'orphaned_at IS NOT NULL' })
export class DeckImageEntity {
  /** Made by the server (a random UUID): the only name the image is served by. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'deck_images_pkey' })
  id: string;

  // A deck's row is removed only by this cascade; a deck marked deleted is the trigger's (see the migration).
  @Column({ name: 'deck_id', type: 'uuid' })
  @ForeignKey(() => DeckEntity, { name: 'deck_images_deck_id_fkey', onDelete: 'CASCADE' })
  deckId: string;

  @Column({ type: 'bytea' })
  bytes: Buffer;

  @Column({ name: 'content_type', type: 'text' })
  contentType: string;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  /** The length of `bytes`, so that a deck's total is summed without reading them. */
  @Column({ type: 'integer' })
  size: number;

  @Column({ name: 'created_at', type: 'timestamp with time zone', default: () => 'now()' })
  createdAt: Date;

  /** Set when its deck was deleted while an open room showed it; the pruning removes it once none does. */
  @Column({ name: 'orphaned_at', type: 'timestamp with time zone', nullable: true })
  orphanedAt: Date | null;
}
