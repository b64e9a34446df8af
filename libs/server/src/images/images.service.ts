import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { GameMetrics, ImageUploadOutcome } from '@app/observability';
import { DeckForImages, DeckImageCaps, ImageRepository, StoredImage } from '@app/persistence';
import { CreatedImage, imagePath, RoomErrorCode, RoomException } from '@app/protocol';
import { checkEditRight } from '../decks/deck-token';
import { DeckErrorCode, deckError } from '../decks/deck.errors';
import { ImageEncoder } from './image-encoder';
import { ImageErrorCode, imageError } from './image.errors';
import { DECK_IMAGE_BYTES, IMAGE_LIMITS } from './image-limits';
import { imageTypeOf } from './image-body';

/**
 * An upload's body as the transport hands it over. It can check the declared length, and it can be
 * read (at most IMAGE_LIMITS.maxBytes).
 */
export interface ImageUpload {
  readonly contentType: string | undefined;
  /** Refuses (413) a body whose Content-Length is over the limit, before any of it is read. */
  checkDeclaredLength(): void;
  read(): Promise<Buffer>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CAPS: DeckImageCaps = { images: IMAGE_LIMITS.perDeck, bytes: DECK_IMAGE_BYTES };

/** The outcome that each refusal of an upload is counted as in /metrics. */
const OUTCOME_OF: Partial<Record<string, ImageUploadOutcome>> = {
  [ImageErrorCode.BadImageType]: 'bad_type',
  [ImageErrorCode.TooLarge]: 'too_large',
  [ImageErrorCode.BadImage]: 'bad_image',
  [ImageErrorCode.TooManyPixels]: 'too_many_pixels',
  [ImageErrorCode.DeckImagesFull]: 'deck_full',
  [RoomErrorCode.Overloaded]: 'busy',
};

/**
 * Handles pictures on deck questions (PROTOCOL.md section 13, "Images"). The holder of a deck's edit
 * token uploads a picture, the server re-encodes it and keeps it in PostgreSQL, and anyone with the
 * picture's id may read it.
 */
@Injectable()
export class ImagesService {
  constructor(
    private readonly images: ImageRepository,
    private readonly encoder: ImageEncoder,
    private readonly metrics: GameMetrics,
  ) {}

  /**
   * Stores an uploaded image for a deck. Everything that can be refused without the body is refused
   * before the body is read: the type, the declared length, the deck and its token, and a full deck.
   */
  async upload(deckId: string, token: string | undefined, upload: ImageUpload): Promise<CreatedImage> {
    if (!UUID.test(deckId)) throw deckNotFound(deckId);
    const stored = await this.counted(async () => {
      if (!imageTypeOf(upload.contentType)) {
        throw imageError(
          ImageErrorCode.BadImageType,
          `send the image as the body with Content-Type ${IMAGE_LIMITS.types.join(', ')}; this one is ${upload.contentType ?? 'missing'}`,
        );
      }
      upload.checkDeclaredLength();
      const deck = await this.editableDeck(deckId, token);
      if (deck.images >= CAPS.images || deck.bytes >= CAPS.bytes) throw deckFull();
      const encoded = await this.encoder.encode(await upload.read());
      const id = randomUUID();
      const outcome = await this.images.addImage({ id, deckId, ...encoded }, CAPS);
      if (outcome === 'no_deck') throw deckNotFound(deckId);
      if (outcome === 'full') throw deckFull();
      return { imageId: id, url: imagePath(id), width: encoded.width, height: encoded.height, bytes: encoded.bytes.length };
    });
    this.metrics.imageUploaded('stored', stored.bytes);
    const { bytes: _bytes, ...created } = stored;
    return created;
  }

  /** Returns the image with this id. An unknown id, or one that is not a UUID, gets 404 `image_not_found`. */
  async read(imageId: string): Promise<StoredImage> {
    const image = UUID.test(imageId) ? await this.images.readImage(imageId) : null;
    if (!image) throw imageError(ImageErrorCode.ImageNotFound, `no image has id ${imageId.slice(0, 40)}`);
    return image;
  }

  /**
   * Takes a picture out of a deck, with the deck's edit token, once no question of the deck names
   * it. While a question still names it, the answer is 409 `image_in_use`. A picture that an open
   * room shows is still served until no open room shows it, and the retention's pruning removes it
   * then. It no longer belongs to the deck, though.
   */
  async remove(deckId: string, token: string | undefined, imageId: string): Promise<void> {
    if (!UUID.test(deckId)) throw deckNotFound(deckId);
    await this.editableDeck(deckId, token);
    const outcome = UUID.test(imageId) ? await this.images.removeImage(deckId, imageId) : 'none';
    if (outcome === 'none') throw imageError(ImageErrorCode.ImageNotFound, `deck ${deckId} has no image ${imageId.slice(0, 40)}`);
    if (outcome === 'in_use') {
      throw imageError(ImageErrorCode.ImageInUse, 'a question of the deck shows this picture: save the deck without it first');
    }
  }

  /**
   * Checks that the deck exists (404 if not), then that it may be edited with this token (403 for a
   * deck nobody may edit, or for the wrong token).
   */
  private async editableDeck(deckId: string, token: string | undefined): Promise<DeckForImages> {
    const deck = await this.images.findDeckForImages(deckId);
    if (!deck) throw deckNotFound(deckId);
    checkEditRight(deck, token, 'changing a deck’s pictures');
    return deck;
  }

  /** Runs an upload's steps, counting a refusal by its outcome in /metrics. */
  private async counted<T>(steps: () => Promise<T>): Promise<T> {
    try {
      return await steps();
    } catch (err) {
      const outcome = err instanceof RoomException ? OUTCOME_OF[err.code] : undefined;
      if (outcome) this.metrics.imageUploaded(outcome);
      throw err;
    }
  }
}

function deckNotFound(deckId: string): RoomException {
  return deckError(DeckErrorCode.DeckNotFound, `no deck has id ${deckId.slice(0, 40)}`);
}

function deckFull(): RoomException {
  return imageError(
    ImageErrorCode.DeckImagesFull,
    `a deck holds at most ${CAPS.images} images and ${CAPS.bytes / (1024 * 1024)} MiB of them; this one is full`,
  );
}
