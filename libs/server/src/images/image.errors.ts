import { ErrorStatus, RoomException, Status } from '@app/protocol';

/**
 * The image API's own refusals. It also uses the deck API's refusals (deck_not_found,
 * deck_read_only) and the envelope's (forbidden).
 */
export enum ImageErrorCode {
  ImageNotFound = 'image_not_found',
  /** The upload is not PNG, JPEG or WebP, by its Content-Type or by its bytes. */
  BadImageType = 'bad_image_type',
  /** The upload is empty, cut short, or cannot be decoded for another reason. */
  BadImage = 'bad_image',
  /** The image has more pixels than the server decodes. A file this small can hold that many only as a decompression bomb. */
  TooManyPixels = 'too_many_pixels',
  /** The body is over the 2 MiB an upload may be. It is refused before more than that is read. */
  TooLarge = 'payload_too_large',
  /** The deck holds as many images, or as many bytes of them, as it may. */
  DeckImagesFull = 'deck_images_full',
  /** A question of the deck names the picture, so the picture cannot be taken out of the deck until the question drops it. */
  ImageInUse = 'image_in_use',
}

/** The only table that maps an image error code to its HTTP status. */
const STATUS: Record<ImageErrorCode, ErrorStatus> = {
  [ImageErrorCode.ImageNotFound]: { status: Status.unknownType },
  [ImageErrorCode.BadImageType]: { status: Status.badRequest },
  [ImageErrorCode.BadImage]: { status: Status.badRequest },
  [ImageErrorCode.TooManyPixels]: { status: Status.badRequest },
  [ImageErrorCode.TooLarge]: { status: Status.badRequest, http: 413 },
  [ImageErrorCode.DeckImagesFull]: { status: Status.conflict },
  [ImageErrorCode.ImageInUse]: { status: Status.conflict },
};

export function imageError(code: ImageErrorCode, message: string): RoomException {
  return new RoomException(code, message, STATUS[code]);
}
