import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react'
import { IMAGE_LIMITS, imagePath, type CreatedImage, type ErrorBody } from '@game-rooms/client'

// This is the control for a question's picture in the deck editor (docs/protocol.md section 13,
// "Images"). It has a file input for PNG, JPEG or WebP, a preview, the upload to the deck, and the
// server's verdict. The server re-encodes the picture (keeping no EXIF or GPS position, at most
// 1600 px) and answers with its id.

export interface ImageUploadProps {
  /** The saved deck the picture is for. A deck must be saved (and have its edit token) before it takes pictures. */
  readonly deckId: string
  readonly editToken: string
  /** The picture the question has now, if any. */
  readonly imageId?: string
  /** What the control is for, as screen readers say it: "Picture for question 3". */
  readonly label: string
  /** Called with the new picture's id once the server has stored it. */
  readonly onUploaded: (imageId: string) => void
  /** Called when the person removes the picture from the question (the button shows only with this). */
  readonly onRemoved?: () => void
}

const MIB = 1024 * 1024
const TYPES: readonly string[] = IMAGE_LIMITS.types

/** Turns the upload's refusal into a sentence for the person. */
function describeRefusal(status: number, error: Partial<ErrorBody>): string {
  switch (error.code) {
    case 'payload_too_large':
      return `That picture is larger than ${IMAGE_LIMITS.maxBytes / MIB} MiB. Choose a smaller one, or save it smaller first.`
    case 'deck_images_full':
      return 'This deck holds as many pictures as it may.'
    case 'rate_limited':
      return 'Too many uploads and saves from here just now. Wait a minute and try again.'
    case 'forbidden':
      return 'This browser does not hold the deck’s edit token, so it cannot add pictures.'
    case 'deck_not_found':
      return 'The deck is gone: it may have been deleted.'
    default:
      return error.message ?? `The server refused the picture (HTTP ${status}).`
  }
}

/** POST /api/decks/{id}/images sends the file itself as the body. */
async function uploadImage(deckId: string, editToken: string, file: File): Promise<CreatedImage> {
  let res: Response
  try {
    res = await fetch(`/api/decks/${encodeURIComponent(deckId)}/images`, {
      method: 'POST',
      headers: { 'content-type': file.type, authorization: `Bearer ${editToken}`, accept: 'application/json' },
      body: file,
    })
  } catch {
    throw new Error('Could not reach the server. Check your connection and try again.')
  }
  const body = (await res.json().catch(() => ({}))) as Partial<ErrorBody> & Partial<CreatedImage>
  if (!res.ok) throw new Error(describeRefusal(res.status, body))
  return body as CreatedImage
}

/** The picture control of one question. The person chooses a file and sees it, and the question gets the server's id for it. */
export function ImageUpload({ deckId, editToken, imageId, label, onUploaded, onRemoved }: ImageUploadProps) {
  const inputId = useId()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The chosen file is shown while it uploads, from a blob: URL, which the pages' CSP allows.
  const [pending, setPending] = useState<string | null>(null)
  const pendingUrl = useRef<string | null>(null)

  const showPending = (url: string | null) => {
    if (pendingUrl.current) URL.revokeObjectURL(pendingUrl.current)
    pendingUrl.current = url
    setPending(url)
  }
  useEffect(() => () => showPending(null), [])

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target
    const file = input.files?.[0]
    // Clearing the input lets the person choose the same file again after fixing it.
    input.value = ''
    if (!file) return
    setError(null)
    if (!TYPES.includes(file.type)) {
      setError('A picture must be a PNG, JPEG or WebP file.')
      return
    }
    if (file.size > IMAGE_LIMITS.maxBytes) {
      setError(`That picture is larger than ${IMAGE_LIMITS.maxBytes / MIB} MiB. Choose a smaller one, or save it smaller first.`)
      return
    }
    setBusy(true)
    showPending(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null)
    try {
      const created = await uploadImage(deckId, editToken, file)
      onUploaded(created.imageId)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      showPending(null)
      setBusy(false)
    }
  }

  const shown = pending ?? (imageId ? imagePath(imageId) : null)
  const errorId = `${inputId}-error`
  return (
    <div className="image-upload field">
      <label htmlFor={inputId}>{label}</label>
      {shown && (
        <img className="image-upload-preview" src={shown} alt={`${label}: ${pending ? 'uploading' : 'chosen picture'}`} height={120} />
      )}
      <input
        id={inputId}
        className="input"
        type="file"
        accept={TYPES.join(',')}
        onChange={(e) => void choose(e)}
        disabled={busy}
        aria-describedby={error ? errorId : undefined}
      />
      <span className="hint">
        PNG, JPEG or WebP, up to {IMAGE_LIMITS.maxBytes / MIB} MiB. The server removes the photo’s location and other details.
      </span>
      {busy && <span role="status">Uploading…</span>}
      {imageId && onRemoved && !busy && (
        <button type="button" className="small-button" onClick={onRemoved}>
          Remove picture<span className="visually-hidden">{` (${label})`}</span>
        </button>
      )}
      {error && (
        <p id={errorId} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
