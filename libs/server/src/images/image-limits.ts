// These limits bound what an image upload may cost the server (README "Limits", PROTOCOL.md
// section 13). The body's size, the types and the longer side come from the protocol
// (packages/client/src/http/images.ts).
export { IMAGE_LIMITS } from '@app/protocol';

/**
 * The most pixels an upload may decode to: 40 megapixels. A 48-megapixel phone photo could fit in
 * 2 MiB only the way a decompression bomb does. Decoding an image takes up to 4 bytes per pixel.
 */
export const IMAGE_MAX_INPUT_PIXELS = 40_000_000;

/** The most bytes one deck's images may add up to, as stored. That is 200 photos of about 320 KB each. */
export const DECK_IMAGE_BYTES = 64 * 1024 * 1024;

/** How many uploads one instance re-encodes at once. The others wait their turn. */
export const IMAGE_ENCODINGS_AT_ONCE = 2;

/** How many uploads may wait for their turn. Beyond that, an upload is refused with 503 `overloaded` and Retry-After. */
export const IMAGE_ENCODINGS_WAITING = 16;

/**
 * The type the server serves every image as. WebP keeps a PNG's transparency and is smaller than
 * JPEG at the same quality.
 */
export const SERVED_IMAGE_TYPE = 'image/webp';

/** The WebP quality (0-100) of the served image. At this quality, photographs show no loss at projector size. */
export const SERVED_IMAGE_QUALITY = 82;
