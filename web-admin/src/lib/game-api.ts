// The game's HTTP API (docs/protocol.md section 2) on the page's own origin.

/** A non-2xx answer, with the server's error code: `room_full`, `game_in_progress`, ... */
export class GameApiError extends Error {
  readonly status: number
  readonly code: string | undefined

  constructor(status: number, code: string | undefined, message: string) {
    super(message)
    this.name = 'GameApiError'
    this.status = status
    this.code = code
  }
}

export async function gameRequest<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  if (!res.ok) {
    const error = (parsed ?? {}) as { code?: string; message?: string }
    throw new GameApiError(res.status, error.code, error.message ?? `HTTP ${res.status}`)
  }
  return parsed as T
}

/** A sentence for a person, from the error codes they can meet. */
export function explain(error: unknown): string {
  if (error instanceof GameApiError) {
    switch (error.code) {
      case 'room_not_found':
        return 'No room has that code. Check it with your host.'
      case 'room_full':
        return 'This room is full.'
      case 'game_in_progress':
        return 'The game has already started; wait for the next one.'
      case 'room_closed':
        return 'This room is closed.'
      case 'bad_data':
        return error.message
      default:
        return error.message
    }
  }
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.'
  return error instanceof Error ? error.message : String(error)
}
