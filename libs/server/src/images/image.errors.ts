import { ErrorStatus, RoomException, Status } from '@app/protocol';

/** The image API's own refusals, beside the deck API's (deck_not_found, deck_read_only) and the envelope's (forbidden). */
export enum ImageErrorCode {
  ImageNotFound = 'image_not_found',
  /** Not PNG, JPEG or WebP: by its Content-Type, or by its bytes. */
  BadImageType = 'bad_image_type',
  /** Empty, cut short, or otherwise not decodable. */
  BadImage = 'bad_image',
  /** More pixels than the server decodes: a picture that small a file can hold only as a decompression bomb. */
  TooManyPixels = 'too_many_pixels',
  /** A body over the 2 MiB an upload may be, refused before more than that is read. */
  TooLarge = 'payload_too_large',
  /** The deck holds as many images, or as many bytes of them, as it may. */
  DeckImagesFull = 'deck_images_full',
  /** A question of the deck names the picture: it cannot be taken out of the deck before the question lets it go. */
  ImageInUse = 'image_in_use',
}

/** The one table from an image code to its HTTP status. */
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
