import { imagePath } from '@game-rooms/client'
import { gameRequest } from '../../../lib/game-api'

/**
 * POST /api/decks/{id}/images with the edit token uploads a PNG, JPEG or WebP of at most 2 MiB,
 * which the server re-encodes. Duplicating a deck uploads its copies of the pictures with this;
 * the editor's picture control does its own upload (features/decks/image-upload.tsx).
 */
export function uploadImage(deckId: string, editToken: string, picture: Blob): Promise<{ imageId: string }> {
  return gameRequest<{ imageId: string }>(
    'POST',
    `/api/decks/${encodeURIComponent(deckId)}/images`,
    { raw: picture, type: picture.type || 'application/octet-stream' },
    editToken,
  )
}

/** GET /api/images/{imageId} fetches a picture as the server serves it. */
export async function downloadImage(imageId: string): Promise<Blob> {
  const res = await fetch(imagePath(imageId))
  if (!res.ok) throw new Error(`The picture ${imageId} could not be read (HTTP ${res.status}).`)
  return res.blob()
}
