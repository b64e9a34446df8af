// This calls the game's HTTP API (docs/protocol.md section 2) on the page's own origin. Its shapes
// are the protocol's zod schemas (packages/client/src/http/), and the fetchers name the types
// inferred from them.

import type { ErrorBody } from '@game-rooms/client'

/** A non-2xx answer, with the server's error code: `room_full`, `game_in_progress`, ... */
export class GameApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** The whole error answer. Some answers carry more than a code (`bad_csv` has `line` and `column`). */
  readonly body: Readonly<Record<string, unknown>>

  constructor(status: number, code: string | undefined, message: string, body: Readonly<Record<string, unknown>> = {}) {
    super(message)
    this.name = 'GameApiError'
    this.status = status
    this.code = code
    this.body = body
  }
}

/** A body sent as it is, with its own type (a deck's CSV, a picture), rather than as JSON. */
export interface RawBody {
  readonly raw: string | Blob
  readonly type: string
}

export async function gameRequest<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const raw = isRawBody(body) ? body : undefined
  if (body !== undefined) headers['content-type'] = raw ? raw.type : 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : raw ? raw.raw : JSON.stringify(body) })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  if (!res.ok) {
    const error = (parsed ?? {}) as Partial<ErrorBody>
    throw new GameApiError(res.status, error.code, error.message ?? `HTTP ${res.status}`, error)
  }
  return parsed as T
}

function isRawBody(body: unknown): body is RawBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    (typeof (body as RawBody).raw === 'string' || (body as RawBody).raw instanceof Blob) &&
    typeof (body as RawBody).type === 'string'
  )
}

/** Turns the error codes a person can meet into a sentence for that person. */
export function explain(error: unknown): string {
  if (error instanceof GameApiError) {
    switch (error.code) {
      case 'room_not_found':
        return 'No room has that code. Check it with your host.'
      case 'room_full':
        return 'This room is full.'
      case 'game_in_progress':
        return 'The game has already started; wait for the next one.'
      case 'name_taken':
        return 'Someone in this room already has that name. Pick another one.'
      case 'room_closed':
        return 'This room is closed.'
      case 'bad_data':
        return error.message
      case 'deck_not_found':
        return 'No deck has that id: it may have been deleted.'
      case 'deck_read_only':
        return 'This deck cannot be changed (the built-in deck never can).'
      case 'payload_too_large':
        return 'That is too large for the server (a CSV may be up to 1 MiB).'
      default:
        return error.message
    }
  }
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.'
  return error instanceof Error ? error.message : String(error)
}
