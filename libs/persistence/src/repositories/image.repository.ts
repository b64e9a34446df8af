import { Database } from '../database';

/** What an upload needs to know of the deck it is for, before it reads the image. */
export interface DeckForImages {
  /** SHA-256 of the deck's edit token; null when nobody may edit it (built in, or made before tokens). */
  readonly editTokenHash: Buffer | null;
  readonly builtin: boolean;
  /** How many images the deck holds, and their bytes. */
  readonly images: number;
  readonly bytes: number;
}

/** An image as the server re-encoded it, ready to store. */
export interface NewImage {
  readonly id: string;
  readonly deckId: string;
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly width: number;
  readonly height: number;
}

/** The most images one deck holds, and the most bytes they add up to. */
export interface DeckImageCaps {
  readonly images: number;
  readonly bytes: number;
}

/** `stored`; `no_deck` when the deck went (or became read-only) meanwhile; `full` when it is at a cap. */
export type AddImageOutcome = 'stored' | 'no_deck' | 'full';

/**
 * `removed`; `kept_for_rooms` when an open room shows it (it goes when none does); `in_use` when an
 * item of the deck names it; `none` when the deck has no such picture.
 */
export type RemoveImageOutcome = 'removed' | 'kept_for_rooms' | 'in_use' | 'none';

export interface StoredImage {
  readonly contentType: string;
  readonly bytes: Buffer;
}

/** Images on the items of hosts' decks (PROTOCOL.md section 13), each statement named like every other. */
export class ImageRepository {
  constructor(private readonly db: Database) {}

  /** The deck an image is uploaded to, with what deciding whether it may take one needs; null when no deck (or a deleted one) has this id. */
  async findDeckForImages(deckId: string): Promise<DeckForImages | null> {
    const [row] = await this.db.run<{ edit_token_hash: Buffer | null; builtin: boolean; images: number; bytes: string }>(
      'ImageRepository.findDeckForImages',
      // Orphaned pictures (removed, kept only while an open room shows them) are no longer the deck's.
      `SELECT d.edit_token_hash, d.builtin, count(i.id)::int AS images, coalesce(sum(i.size), 0)::bigint AS bytes
       FROM decks d LEFT JOIN deck_images i ON i.deck_id = d.id AND i.orphaned_at IS NULL
       WHERE d.id = $1 AND d.deleted_at IS NULL
       GROUP BY d.id`,
      [deckId],
    );
    return row ? { editTokenHash: row.edit_token_hash, builtin: row.builtin, images: row.images, bytes: Number(row.bytes) } : null;
  }

  /**
   * Stores an image if its deck is still there and below both caps, in one statement
   * (`add_deck_image`, migration 1764903600000, says why a function).
   */
  async addImage(image: NewImage, caps: DeckImageCaps): Promise<AddImageOutcome> {
    const [row] = await this.db.run<{ outcome: AddImageOutcome }>(
      'ImageRepository.addImage',
      `SELECT add_deck_image($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8) AS outcome`,
      [image.id, image.deckId, image.bytes, image.contentType, image.width, image.height, caps.images, caps.bytes],
      undefined,
      // Its answer lost, it was stored when the image is there (its id is this call's own).
      { sql: `SELECT 'stored' AS outcome FROM deck_images WHERE id = $1`, params: [image.id] },
    );
    return row.outcome;
  }

  /**
   * Takes a picture out of its deck, in one statement (`remove_deck_image`, migration
   * 1764903600000): it goes now, unless an open room's deck copy shows it; then it is marked
   * orphaned (no longer the deck's, nor counted in its caps) and the retention's pruning removes it
   * once no open room does. Refused (`in_use`) while an item of the deck names it.
   */
  async removeImage(deckId: string, imageId: string): Promise<RemoveImageOutcome> {
    const [row] = await this.db.run<{ outcome: RemoveImageOutcome }>(
      'ImageRepository.removeImage',
      `SELECT remove_deck_image($1::uuid, $2::uuid) AS outcome`,
      [imageId, deckId],
      undefined,
      // Its answer lost, it was recorded when the deck no longer holds the picture as its own.
      {
        sql: `SELECT 'removed' AS outcome WHERE NOT EXISTS (SELECT 1 FROM deck_images WHERE id = $1 AND deck_id = $2 AND orphaned_at IS NULL)`,
        params: [imageId, deckId],
      },
    );
    return row.outcome;
  }

  /** The image with this id; null when there is none. */
  async readImage(id: string): Promise<StoredImage | null> {
    const [row] = await this.db.run<{ content_type: string; bytes: Buffer }>(
      'ImageRepository.readImage',
      `SELECT content_type, bytes FROM deck_images WHERE id = $1`,
      [id],
    );
    return row ? { contentType: row.content_type, bytes: row.bytes } : null;
  }
}
