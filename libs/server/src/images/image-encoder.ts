import sharp, { type SharpOptions } from 'sharp';
import { ImageErrorCode, imageError } from './image.errors';
import { describeBytes, sniffImageType } from './image-type';
import {
  IMAGE_ENCODINGS_AT_ONCE,
  IMAGE_ENCODINGS_WAITING,
  IMAGE_LIMITS,
  IMAGE_MAX_INPUT_PIXELS,
  SERVED_IMAGE_QUALITY,
  SERVED_IMAGE_TYPE,
} from './image-limits';
import { EncodingSlots } from './encoding-slots';

/** An image as the server serves it. */
export interface EncodedImage {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly width: number;
  readonly height: number;
}

// Files that are cut short or damaged fail. Only the first frame is read, so an animation becomes its
// first picture.
const INPUT: SharpOptions = { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'error', autoOrient: true, animated: false };

/**
 * Re-encodes what hosts upload into what the pages show. The image is turned upright by its EXIF
 * orientation and scaled to at most IMAGE_LIMITS.maxSide pixels on its longer side. It is written
 * as WebP, in sRGB, with no metadata at all. sharp keeps no metadata unless told to, so there is no
 * EXIF, no GPS position, no XMP and no ICC profile, and the colours are converted to sRGB first.
 * Only a few images are encoded at a time (EncodingSlots), in libvips' threads.
 */
export class ImageEncoder {
  private readonly slots = new EncodingSlots(IMAGE_ENCODINGS_AT_ONCE, IMAGE_ENCODINGS_WAITING);

  constructor() {
    // Every upload is a different file, so libvips' cache of operations would only hold memory.
    sharp.cache(false);
  }

  /** Re-encodes the image. It refuses with 400 `bad_image_type`, `bad_image` or `too_many_pixels` when it cannot. */
  async encode(input: Buffer): Promise<EncodedImage> {
    if (!sniffImageType(input)) {
      throw imageError(ImageErrorCode.BadImageType, `an image must be PNG, JPEG or WebP; this body is ${describeBytes(input)}`);
    }
    return this.slots.run(async () => {
      try {
        const { data, info } = await sharp(input, INPUT)
          .resize({ width: IMAGE_LIMITS.maxSide, height: IMAGE_LIMITS.maxSide, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: SERVED_IMAGE_QUALITY })
          .toBuffer({ resolveWithObject: true });
        return { bytes: data, contentType: SERVED_IMAGE_TYPE, width: info.width, height: info.height };
      } catch (err) {
        throw refusalOf(err);
      }
    });
  }
}

/** Turns libvips' reason for a failure into the refusal the uploader gets. */
function refusalOf(err: unknown) {
  const reason = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(reason)) {
    return imageError(
      ImageErrorCode.TooManyPixels,
      `an image may have at most ${IMAGE_MAX_INPUT_PIXELS / 1_000_000} megapixels before it is scaled down; this one has more`,
    );
  }
  return imageError(ImageErrorCode.BadImage, `the image could not be read: ${reason.split('\n')[0].slice(0, 200)}`);
}
