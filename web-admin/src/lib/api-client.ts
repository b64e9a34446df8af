import type { ApiErrorBody } from './admin-types'
import { session } from './session'

/** Where the server answers the admin API. The server fixes this path, wherever the console is served. */
export const ADMIN_API = '/admin/api'

/** A non-2xx answer from the admin API, with the server's error code when it sent one. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined

  constructor(status: number, code: string | undefined, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
  }
}

export interface AdminRequest {
  readonly method?: 'GET' | 'POST' | 'DELETE'
  readonly body?: unknown
  readonly signal?: AbortSignal
  /** The admin token, sent once as Bearer, only to sign in. Every other request rides on the session cookie. */
  readonly token?: string
}

/**
 * One request to /admin/api, signed by the session cookie the browser holds. Resolves with the
 * parsed JSON body, or undefined for 204. A 401 signs the session out, since every later request
 * would fail too.
 */
export async function adminRequest<T>(path: string, request: AdminRequest = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${ADMIN_API}${path}`, {
    method: request.method ?? 'GET',
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: request.signal,
    credentials: 'same-origin',
  })
  const text = await res.text()
  const body = parseJson(text)
  if (!res.ok) {
    const error = (body ?? {}) as ApiErrorBody
    if (res.status === 401 && request.token === undefined) session.refuse()
    throw new ApiError(res.status, error.code, error.message ?? `HTTP ${res.status}`)
  }
  return body as T
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Describes an error in a short line for an operator, such as "room_not_found (404)". */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.code ? `${error.code} (${error.status})` : error.message
  if (error instanceof Error) return error.message
  return String(error)
}
