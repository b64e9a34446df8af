// What an image upload may cost the server (README "Limits", PROTOCOL.md section 13). The body's
// size, the types and the longer side are the protocol's (packages/client/src/http/images.ts).
export { IMAGE_LIMITS } from '@app/protocol';

/**
 * The most pixels an upload may decode to (40 megapixels: a 48-megapixel phone photo fits in
 * 2 MiB only as a decompression bomb would). Decoding one takes up to 4 bytes a pixel.
 */
export const IMAGE_MAX_INPUT_PIXELS = 40_000_000;

/** The most bytes one deck's images add up to, as stored: 200 photos of about 320 KB each. */
export const DECK_IMAGE_BYTES = 64 * 1024 * 1024;

/** How many uploads one instance re-encodes at once; the others wait their turn. */
export const IMAGE_ENCODINGS_AT_ONCE = 2;

/** How many uploads may wait for their turn; past that, 503 `overloaded` with Retry-After. */
export const IMAGE_ENCODINGS_WAITING = 16;

/** What the server serves every image as: WebP keeps a PNG's transparency and is smaller than JPEG at the same quality. */
export const SERVED_IMAGE_TYPE = 'image/webp';

/** WebP's quality (0-100) for the served image: photographs show no loss at projector size. */
export const SERVED_IMAGE_QUALITY = 82;
