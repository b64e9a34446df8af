import { z } from 'zod';

// Pictures on deck questions (docs/protocol.md section 13, "Images"): what an upload may be, and
// what the server answers.

/** What `POST /api/decks/{id}/images` takes and what the server makes of it. */
export const IMAGE_LIMITS = {
  /** The largest body read, in bytes (2 MiB); a larger one is refused with 413. */
  maxBytes: 2 * 1024 * 1024,
  /** The types a body may have. */
  types: ['image/png', 'image/jpeg', 'image/webp'],
  /** The longer side of an image as served, at most, in pixels. */
  maxSide: 1600,
  /** The most images one deck holds: one for each of its questions. */
  perDeck: 200,
} as const;

/** The path an image is served at: what `question.open`'s `image` holds. */
export const imagePath = (imageId: string) => `/api/images/${encodeURIComponent(imageId)}`;

/** `POST /api/decks/{id}/images`: the stored image. */
export const CreatedImage = z.object({
  imageId: z.guid().meta({ description: 'the image id a deck question names as its `image`' }),
  url: z.string().meta({ description: 'where the image is served: `/api/images/{imageId}`' }),
  width: z.int().meta({ description: 'in pixels, as served' }),
  height: z.int().meta({ description: 'in pixels, as served' }),
});
export type CreatedImage = z.infer<typeof CreatedImage>;

export const ImageIdParams = z.object({
  imageId: z
    .string()
    .meta({ description: 'the image id (a UUID), from the upload’s answer', example: '5b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f' }),
});
