import { gameRequest } from '../../../lib/game-api'

/** The URL a question's picture is served at (docs/protocol.md section 13). */
export function imageUrl(imageId: string): string {
  return `/api/images/${encodeURIComponent(imageId)}`
}

/** POST /api/decks/{id}/images with the edit token: a PNG, JPEG or WebP of at most 2 MiB, re-encoded by the server. */
export function uploadImage(deckId: string, editToken: string, picture: Blob): Promise<{ imageId: string }> {
  return gameRequest<{ imageId: string }>(
    'POST',
    `/api/decks/${encodeURIComponent(deckId)}/images`,
    { raw: picture, type: picture.type || 'application/octet-stream' },
    editToken,
  )
}

/** GET /api/images/{imageId}: a picture as the server serves it. */
export async function downloadImage(imageId: string): Promise<Blob> {
  const res = await fetch(imageUrl(imageId))
  if (!res.ok) throw new Error(`The picture ${imageId} could not be read (HTTP ${res.status}).`)
  return res.blob()
}
